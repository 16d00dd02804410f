import AgentCore
import CGtk

/// Loads an icon that CSS draws (the spinner's `process-working-symbolic`) before it is first
/// shown. The first SVG drawn maps librsvg and gdk-pixbuf's SVG loader — tens of milliseconds
/// — and an SVG icon is read and rendered the first time it is drawn: milliseconds more in
/// the frame that shows it. Here gdk-pixbuf reads the file on a thread, which maps the
/// libraries; then the icon is drawn once off screen, on the main thread between frames, into
/// the icon theme's entry that CSS draws from (one looked up with no flags; an icon looked up
/// with `GTK_ICON_LOOKUP_PRELOAD` is an entry of its own).
@MainActor
enum IconPreload {
    /// The icons begun, kept for the app's life: the theme's cache of recent icons could let
    /// one go, and the next lookup would read its file again.
    private static var kept: [String: OpaquePointer] = [:]
    /// The icons drawn: the frame that shows one only paints it.
    private(set) static var drawn: Set<String> = []

    /// Starts loading `name` at the 16-pixel size symbolic icons are drawn, at `widget`'s scale.
    static func begin(_ name: String, for widget: UnsafeMutablePointer<GtkWidget>) {
        let theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(widget))
        guard kept[name] == nil,
              let icon = gtk_icon_theme_lookup_icon(theme, name, nil, 16, gtk_widget_get_scale_factor(widget),
                                                    GTK_TEXT_DIR_NONE, GtkIconLookupFlags(rawValue: 0)) else { return }
        kept[name] = icon
        let path = file(of: icon)
        // A thread of its own: mapping the libraries would hold one of Swift's few shared threads.
        DetachedThread.start {
            if let path {
                var error: UnsafeMutablePointer<GError>?
                if let pixbuf = gdk_pixbuf_new_from_file_at_size(path, 16, 16, &error) { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
                g_clear_error(&error)
            }
            Task { @MainActor in draw(name) }
        }
    }

    /// The icon's file, when it is one on disk (not in a resource).
    static func file(of icon: OpaquePointer) -> String? {
        guard let file = gtk_icon_paintable_get_file(icon) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let path = g_file_get_path(file) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }

    /// Draws icon `name` into a snapshot that is thrown away: the icon keeps its texture.
    private static func draw(_ name: String) {
        guard let icon = kept[name] else { return }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(icon, snapshot, 16, 16)
        if let node = gtk_snapshot_free_to_node(snapshot) { gsk_render_node_unref(node) }
        drawn.insert(name)
    }
}
