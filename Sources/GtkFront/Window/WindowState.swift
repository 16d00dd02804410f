import AgentCore
import CGtk

/// The main window's size and maximized state, kept in GSettings as GNOME apps keep them:
/// read when the window is made, written when it closes (the unmaximized size).
@MainActor
enum WindowState {
    static func restore(_ window: UnsafeMutablePointer<GtkWidget>, from settings: SettingsStore?, defaultWidth: Int32) {
        guard let settings else {
            gtk_window_set_default_size(window.cast(), defaultWidth, 700)
            return
        }
        let width = max(360, settings.root.int("window-width"))
        let height = max(360, settings.root.int("window-height"))
        gtk_window_set_default_size(window.cast(), Int32(clamping: width), Int32(clamping: height))
        if settings.root.bool("window-maximized") { gtk_window_maximize(window.cast()) }
    }

    static func save(_ window: UnsafeMutablePointer<GtkWidget>, to settings: SettingsStore?) {
        guard let settings else { return }
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(window.cast(), &width, &height)
        if width > 0, height > 0 {
            settings.root.set("window-width", Int(width))
            settings.root.set("window-height", Int(height))
        }
        settings.root.set("window-maximized", gtk_window_is_maximized(window.cast()) != 0)
    }
}
