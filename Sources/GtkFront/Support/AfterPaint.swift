import CGtk

/// Runs a closure once, just after the next frame of a widget's frame clock is painted: for
/// work that should not compete with the frame showing what the user just did.
@MainActor
enum AfterPaint {
    /// A signal connection that runs once, then disconnects itself.
    private final class Once {
        var handler: gulong = 0
    }

    /// Runs `action` after the next paint of `widget`'s frame clock, which `widget` must have (be realized).
    static func once(_ widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return action() }
        let painted = Once()
        painted.handler = Signals.connect(UnsafeMutableRawPointer(clock), "after-paint", after: true) {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), painted.handler)
            action()
        }
    }
}
