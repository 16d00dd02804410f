/* gettext, setlocale and locale-aware number formatting: part of glibc, but not exported by
 * Swift's Glibc module (and snprintf is variadic, which Swift cannot call). */
#ifndef AGENT_CINTL_SHIM_H
#define AGENT_CINTL_SHIM_H

#include <libintl.h>
#include <locale.h>
#include <stdio.h>

/* `value` with the LC_NUMERIC locale's digit grouping ("1.234" in German): at most `size`
 * bytes of it in `buffer`. */
static inline void agent_format_integer(long long value, char *buffer, size_t size) {
    snprintf(buffer, size, "%'lld", value);
}

/* `value` with `digits` digits after the LC_NUMERIC locale's decimal separator, grouped. */
static inline void agent_format_decimal(double value, int digits, char *buffer, size_t size) {
    snprintf(buffer, size, "%'.*f", digits, value);
}

/* A locale of every category, for one thread's `uselocale` (LC_ALL_MASK is a macro Swift
 * cannot see); NULL when `name` is not installed. */
static inline locale_t agent_newlocale(const char *name) {
    return newlocale(LC_ALL_MASK, name, (locale_t)0);
}

#endif
