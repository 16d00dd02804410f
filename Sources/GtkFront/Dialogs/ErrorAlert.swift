import AgentCore
import CGtk

/// The modal alert: what went wrong and what to do about it, headed "LLM Error" unless the
/// error is Agent's own (a file refused, a chat that could not be exported).
@MainActor
enum ErrorAlert {
    static let heading = tr("LLM Error")

    /// Shows `message` over `parent`; `closed` runs once when the user dismisses it.
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, heading: String = heading, message: String,
                     closed: @escaping @MainActor () -> Void) -> MessageDialog {
        MessageDialog(over: parent, heading: heading, body: message, responses: [.init(id: "ok", label: tr("_OK"))],
                      defaultResponse: "ok", closeResponse: "ok") { _ in closed() }
    }
}
