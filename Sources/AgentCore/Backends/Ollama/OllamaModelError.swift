import FoundationEssentials

/// Why managing an Ollama model failed, in Ollama's own words where it gave some.
public enum OllamaModelError: Error, Sendable, Equatable, LocalizedError {
    /// Ollama refused or failed (an `{"error": …}` line or an error response): its message.
    case ollama(String)
    /// The pull stream ended without Ollama saying it succeeded.
    case pullEnded(model: String)

    public var errorDescription: String? {
        switch self {
        case .ollama(let message):
            return message
        case .pullEnded(let model):
            return tr("The download of “%s” ended before Ollama said it was complete.", model)
        }
    }

    /// The error for a response with a non-success status: Ollama's message from its JSON
    /// body, else the body, else the status.
    static func http(_ head: HTTPResponseHead, body: Data) -> OllamaModelError {
        let message = ServerErrorBody.message(inBody: body)
        return .ollama(message.isEmpty ? "\(head.status) \(head.reason)" : message)
    }
}
