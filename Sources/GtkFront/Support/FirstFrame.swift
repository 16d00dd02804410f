import CGtk

/// Runs a closure once, just after a window's first frame is painted.
@MainActor
enum FirstFrame {
    static func after(_ window: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        var mapHandler: gulong = 0
        mapHandler = Signals.connect(window.raw, "map") {
            g_signal_handler_disconnect(window.raw, mapHandler)
            guard let clock = gtk_widget_get_frame_clock(window) else { return }
            var paintHandler: gulong = 0
            paintHandler = Signals.connect(UnsafeMutableRawPointer(clock), "after-paint", after: true) {
                g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), paintHandler)
                action()
            }
        }
    }
}
