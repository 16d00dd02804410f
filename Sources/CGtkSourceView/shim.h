/* GtkSourceView 5: syntax highlighting for code blocks in replies. */
#ifndef AGENT_CGTKSOURCEVIEW_SHIM_H
#define AGENT_CGTKSOURCEVIEW_SHIM_H

#include <gtksourceview/gtksource.h>

/* Whether the app's theme is dark: the dark variant asked for (the desktop's preference),
 * a dark theme by name ("Adwaita-dark"), or GTK_THEME=Name:dark. */
static inline gboolean agent_theme_is_dark(GtkSettings *settings) {
    gboolean prefer_dark = FALSE;
    char *theme = NULL;
    g_object_get(settings, "gtk-application-prefer-dark-theme", &prefer_dark, "gtk-theme-name", &theme, NULL);
    const char *forced = g_getenv("GTK_THEME");
    gboolean dark = prefer_dark || (theme != NULL && g_str_has_suffix(theme, "-dark"))
                    || (forced != NULL && g_str_has_suffix(forced, ":dark"));
    g_free(theme);
    return dark;
}

/* Gives `buffer` the light or dark Adwaita scheme, whichever matches the theme. */
static inline void agent_source_buffer_apply_scheme(GtkSettings *settings, GParamSpec *pspec, GtkSourceBuffer *buffer) {
    (void)pspec;
    GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme(
        gtk_source_style_scheme_manager_get_default(), agent_theme_is_dark(settings) ? "Adwaita-dark" : "Adwaita");
    if (scheme != NULL) gtk_source_buffer_set_style_scheme(buffer, scheme);
}

/* Keeps `buffer`'s scheme in step with the theme for as long as the buffer lives. */
static inline void agent_source_buffer_follow_appearance(GtkSourceBuffer *buffer) {
    GtkSettings *settings = gtk_settings_get_default();
    agent_source_buffer_apply_scheme(settings, NULL, buffer);
    g_signal_connect_object(settings, "notify::gtk-application-prefer-dark-theme",
                            G_CALLBACK(agent_source_buffer_apply_scheme), buffer, 0);
    g_signal_connect_object(settings, "notify::gtk-theme-name",
                            G_CALLBACK(agent_source_buffer_apply_scheme), buffer, 0);
}

#endif
