import CGtk

/// Has GTK load an icon in the background (on GLib's thread pool) before it is first shown.
/// The spinner's `process-working-symbolic` is an SVG in the Adwaita theme, and the first SVG
/// drawn maps librsvg and gdk-pixbuf's SVG loader — tens of milliseconds in the frame that
/// shows it; loaded here, they are mapped before.
@MainActor
enum IconPreload {
    /// Starts loading `name` at `widget`'s scale, at the 16-pixel size symbolic icons are drawn.
    static func begin(_ name: String, for widget: UnsafeMutablePointer<GtkWidget>) {
        let theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(widget))
        let icon = gtk_icon_theme_lookup_icon(theme, name, nil, 16, gtk_widget_get_scale_factor(widget),
                                              GTK_TEXT_DIR_NONE, GTK_ICON_LOOKUP_PRELOAD)
        g_object_unref(UnsafeMutableRawPointer(icon))
    }
}
