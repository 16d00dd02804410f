import CGtk

/// Runs a closure once, just after a widget's next frame is painted — for a widget not yet
/// on screen, its first: for work that should not compete with the frame showing what the
/// user just did, or with the window's first frame.
@MainActor
enum AfterPaint {
    static func next(_ widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        if let clock = gtk_widget_get_frame_clock(widget) {
            Signals.connectOnce(UnsafeMutableRawPointer(clock), "after-paint", after: true, action)
        } else {
            // Not realized yet: its frame clock comes with its window, before it is mapped.
            Signals.connectOnce(widget.raw, "map") { next(widget, action) }
        }
    }
}
