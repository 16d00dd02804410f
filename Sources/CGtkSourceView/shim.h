/* GtkSourceView 5: syntax highlighting for code blocks in replies. */
#ifndef AGENT_CGTKSOURCEVIEW_SHIM_H
#define AGENT_CGTKSOURCEVIEW_SHIM_H

#include <gtksourceview/gtksource.h>

#endif
