/* GtkSourceView 5: syntax highlighting for code blocks in replies. */
#ifndef AGENT_CGTKSOURCEVIEW_SHIM_H
#define AGENT_CGTKSOURCEVIEW_SHIM_H

#include <gtksourceview/gtksource.h>

/* Gives `buffer` the light or dark Adwaita scheme, whichever `style_manager` (the app's
 * AdwStyleManager) says is in use. */
static inline void agent_source_buffer_apply_scheme(GObject *style_manager, GParamSpec *pspec, GtkSourceBuffer *buffer) {
    (void)pspec;
    gboolean dark = FALSE;
    g_object_get(style_manager, "dark", &dark, NULL);
    GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme(
        gtk_source_style_scheme_manager_get_default(), dark ? "Adwaita-dark" : "Adwaita");
    if (scheme != NULL) gtk_source_buffer_set_style_scheme(buffer, scheme);
}

/* Keeps `buffer`'s scheme in step with the style manager's light or dark for as long as
 * the buffer lives. */
static inline void agent_source_buffer_follow_style(GtkSourceBuffer *buffer, gpointer style_manager) {
    agent_source_buffer_apply_scheme(G_OBJECT(style_manager), NULL, buffer);
    g_signal_connect_object(style_manager, "notify::dark", G_CALLBACK(agent_source_buffer_apply_scheme), buffer, 0);
}

#endif
