import CGtk

/// Runs a closure once, just after a window's first frame is painted.
@MainActor
enum FirstFrame {
    private final class Once {
        var handler: gulong = 0
    }

    static func after(_ window: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        let mapped = Once()
        mapped.handler = Signals.connect(window.raw, "map") {
            g_signal_handler_disconnect(window.raw, mapped.handler)
            guard gtk_widget_get_frame_clock(window) != nil else { return }
            AfterPaint.once(window, action)
        }
    }
}
