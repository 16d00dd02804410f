/* gettext and setlocale: part of glibc, but not exported by Swift's Glibc module. */
#ifndef AGENT_CINTL_SHIM_H
#define AGENT_CINTL_SHIM_H

#include <libintl.h>
#include <locale.h>

#endif
