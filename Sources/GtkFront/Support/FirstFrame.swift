import CGtk

/// Runs a closure once, just after a window's first frame is painted.
@MainActor
enum FirstFrame {
    /// A signal connection that runs once, then disconnects itself.
    private final class Once {
        var handler: gulong = 0
    }

    static func after(_ window: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        let mapped = Once()
        mapped.handler = Signals.connect(window.raw, "map") {
            g_signal_handler_disconnect(window.raw, mapped.handler)
            guard let clock = gtk_widget_get_frame_clock(window) else { return }
            let painted = Once()
            painted.handler = Signals.connect(UnsafeMutableRawPointer(clock), "after-paint", after: true) {
                g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), painted.handler)
                action()
            }
        }
    }
}
