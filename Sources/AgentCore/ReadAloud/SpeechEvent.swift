/// What the speech-dispatcher client reports. `request` numbers a `speak`; `message` is the
/// service's id for what it was asked to read.
public enum SpeechEvent: Sendable, Equatable {
    /// Request `request` is queued as message `message`.
    case queued(request: Int, message: Int)
    /// Request `request` could not be sent: the service is unavailable, and why.
    case failed(request: Int, reason: String)
    case begin(message: Int)
    /// The voice reached the index mark `name`.
    case mark(message: Int, name: String)
    case end(message: Int)
    case cancel(message: Int)

    /// The message the service reports about; nil for the client's own reports.
    var message: Int? {
        switch self {
        case .begin(let message), .mark(let message, _), .end(let message), .cancel(let message): message
        case .queued, .failed: nil
        }
    }
}
