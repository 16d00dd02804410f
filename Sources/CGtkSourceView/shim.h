/* GtkSourceView 5: syntax highlighting for code blocks in replies. */
#ifndef AGENT_CGTKSOURCEVIEW_SHIM_H
#define AGENT_CGTKSOURCEVIEW_SHIM_H

#include <gtksourceview/gtksource.h>

/* Gives `buffer` the light or dark Adwaita scheme, whichever the app's appearance is. */
static inline void agent_source_buffer_apply_scheme(GtkSettings *settings, GParamSpec *pspec, GtkSourceBuffer *buffer) {
    (void)pspec;
    gboolean dark = FALSE;
    g_object_get(settings, "gtk-application-prefer-dark-theme", &dark, NULL);
    GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme(
        gtk_source_style_scheme_manager_get_default(), dark ? "Adwaita-dark" : "Adwaita");
    if (scheme != NULL) gtk_source_buffer_set_style_scheme(buffer, scheme);
}

/* Keeps `buffer`'s scheme in step with the appearance for as long as the buffer lives. */
static inline void agent_source_buffer_follow_appearance(GtkSourceBuffer *buffer) {
    GtkSettings *settings = gtk_settings_get_default();
    agent_source_buffer_apply_scheme(settings, NULL, buffer);
    g_signal_connect_object(settings, "notify::gtk-application-prefer-dark-theme",
                            G_CALLBACK(agent_source_buffer_apply_scheme), buffer, 0);
}

#endif
