import CGtk

/// The modal "LLM Error" alert, as in the seed.
@MainActor
enum ErrorAlert {
    static let heading = "LLM Error"

    /// Shows `message` over `parent`; `closed` runs once when the user dismisses it.
    @discardableResult
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, message: String,
                     closed: @escaping @MainActor () -> Void) -> UnsafeMutablePointer<GtkWindow>? {
        Dialog.show(over: parent, isError: true, heading: heading, message: message, buttons: ["OK"],
                    defaultIndex: 0, cancelIndex: 0) { _ in closed() }
    }
}
