/// What the window tells the user besides the conversation: what the connection is doing
/// (the header's subtitle, the empty chat's page), errors waiting to be acknowledged (the
/// alert), and a tool's question for the user (location consent).
@MainActor
public final class ChatStatus {
    /// What the connection is doing.
    public enum Connection: Equatable, Sendable {
        case idle
        case starting
        case ready
        /// It cannot answer, and why (the local model is not installed, say).
        case unavailable(String)
    }

    public private(set) var connection = Connection.idle
    /// The errors to show, joined; empty when there are none.
    public private(set) var errorMessage = ""
    /// The alert's heading for errors that are Agent's own, not the model's or its server's
    /// (a file refused, a chat that could not be exported); nil for those, headed "LLM Error".
    /// Errors of different headings in one alert are headed "Errors".
    public private(set) var errorHeading: String?
    public private(set) var showError = false
    /// Questions tools ask the user (location consent); the window answers them.
    public let consent: ConsentBroker
    /// Told of every change: `.error`, `.status`, `.consentRequested` or `.consentSettled`.
    var onChange: ((ChatViewModel.Change) -> Void)?

    init(consent: ConsentBroker) {
        self.consent = consent
        consent.onRequest = { [weak self] in self?.onChange?(.consentRequested) }
        consent.onSettled = { [weak self] in self?.onChange?(.consentSettled) }
    }

    /// Shows `error` in the alert (added to one still open, once: a store that keeps failing
    /// says so once): a `ChatError` as the model's or its server's, any other as the chat
    /// store's (what the view model reports this way comes from it).
    public func report(_ error: any Error) {
        report(ChatError.describe(error), heading: error is ChatError ? nil : Self.storageHeading)
    }

    /// The heading of errors in reading or saving the chats.
    static var storageHeading: String { tr("Chat Storage Error") }

    /// Shows `message` in the alert, under `heading` when the error is Agent's own.
    public func report(_ message: String, heading: String? = nil) {
        if showError, errorMessage.contains(message) { return }
        if !showError {
            errorHeading = heading
        } else if heading != errorHeading {
            errorHeading = tr("Errors")
        }
        errorMessage = showError && !errorMessage.isEmpty ? errorMessage + "\n\n" + message : message
        showError = true
        onChange?(.error)
    }

    /// The user closed the alert.
    public func dismissError() {
        guard showError else { return }
        showError = false
        errorMessage = ""
        errorHeading = nil
        onChange?(.error)
    }

    func setConnection(_ status: Connection) {
        guard status != connection else { return }
        connection = status
        onChange?(.status)
    }
}
