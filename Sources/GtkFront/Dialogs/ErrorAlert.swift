import CGtk

/// The modal "LLM Error" alert, as in the seed. On GTK 4.10+ a `GtkAlertDialog`, on 4.8 a
/// `GtkMessageDialog` (chosen at compile time in the C shim).
@MainActor
enum ErrorAlert {
    static let heading = "LLM Error"

    private final class Box {
        let closed: @MainActor () -> Void
        init(_ closed: @escaping @MainActor () -> Void) { self.closed = closed }
    }

    /// Shows `message` over `parent`; `closed` runs once when the user dismisses it.
    /// Returns the dialog window when GTK exposes one.
    @discardableResult
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, message: String,
                     closed: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWindow>? {
        let callback: agent_alert_closed = { context in
            guard let context else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            MainActor.assumeIsolated { box.closed() }
        }
        return agent_show_alert(parent.cast(), heading, message, callback, Unmanaged.passRetained(Box(closed)).toOpaque())
    }
}
