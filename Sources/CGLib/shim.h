/* GLib and GIO for the platform-neutral core: D-Bus (GeoClue) and key files (settings).
 * Portable C libraries, no toolkit. */
#ifndef AGENT_CGLIB_SHIM_H
#define AGENT_CGLIB_SHIM_H

#include <gio/gio.h>

/* (s) and (ssv)-style tuples without g_variant_new's varargs. */
static inline GVariant *agent_variant_tuple1(GVariant *only) {
    return g_variant_new_tuple(&only, 1);
}

static inline GVariant *agent_variant_tuple3(GVariant *first, GVariant *second, GVariant *third) {
    GVariant *children[3] = { first, second, third };
    return g_variant_new_tuple(children, 3);
}

#endif
