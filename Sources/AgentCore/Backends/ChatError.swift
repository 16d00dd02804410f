import FoundationEssentials

/// Why a reply failed, worded for the person reading the alert or the CLI's stderr.
public enum ChatError: Error, Sendable, Equatable, LocalizedError {
    /// The server answered with a non-success status. `message` is the server's own words
    /// (from its JSON error body, else the body, else the reason phrase).
    /// `retryAfter`: the server's `Retry-After` (429, 503), as it sent it.
    case http(status: Int, reason: String, url: String, message: String, retryAfter: String? = nil)
    /// The server could not be reached or the exchange failed before any reply arrived.
    case transport(url: String, message: String)
    /// The server reported an error inside the stream.
    case server(message: String)
    /// The stream ended before the server said the reply was complete.
    case cutOff(url: String, detail: String?)
    /// The server sent nothing for `seconds` (the idle timeout); what arrived is kept.
    case stalled(url: String, seconds: Int)
    /// The server URL cannot be used.
    case invalidURL(String)
    /// The local model could not be started.
    case localModel(String)
    /// The model kept asking for tools; the turn stopped after this many rounds.
    case toolRoundLimit(Int)

    /// Any error as the user should read it.
    public static func describe(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }

    public var errorDescription: String? {
        switch self {
        case .http(let status, let reason, let url, let message, let retryAfter):
            let heading = "The server answered \(status) \(reason).\n\(url)"
            let text = message.isEmpty || message == reason ? heading : "\(heading)\n\n\(message)"
            return [text, Self.advice(status: status, retryAfter: retryAfter)].compactMap { $0 }.joined(separator: "\n\n")
        case .transport(let url, let message):
            let text = "Could not get a reply from \(url):\n\(message)"
            // curl's words for a certificate it cannot trust.
            guard message.contains("certificate") || message.contains("SSL") else { return text }
            return text + "\n\nIf this is your own server with a self-signed certificate, give Agent its CA certificate "
                + "(Preferences › Servers, or --ca-file). Certificates are always checked."
        case .stalled(let url, let seconds):
            return "The server sent nothing for \(seconds) seconds, so Agent stopped waiting. What arrived is kept.\n\(url)"
        case .server(let message):
            return "The server reported an error:\n\(message)"
        case .cutOff(let url, let detail):
            let base = "The reply was cut off: the connection to \(url) ended before the server finished."
            return detail.map { "\(base)\n\($0)" } ?? base
        case .invalidURL(let url):
            return "“\(url)” is not a usable server URL. It must start with http:// or https://."
        case .localModel(let message):
            return message
        case .toolRoundLimit(let rounds):
            return "The model kept calling tools, so Agent stopped after \(rounds) rounds. The reply so far is kept."
        }
    }

    /// What the user can do about an HTTP error status.
    private static func advice(status: Int, retryAfter: String?) -> String? {
        switch status {
        case 401, 403:
            return "Check the API key for this server (Preferences › Servers)."
        case 404:
            return "Check the server's URL and API path, and that it serves this model."
        case 429, 503:
            let wait = retryAfter.flatMap { Int($0.trimmedSpaces) }.map { "in \($0) second\($0 == 1 ? "" : "s")" }
                ?? retryAfter.map { "after \($0.trimmedSpaces)" } ?? "in a while"
            return status == 429 ? "The server is limiting requests: try again \(wait)." : "The server is busy or down: try again \(wait)."
        default:
            return nil
        }
    }

    /// The error for a response with a non-success status: the server's own message from
    /// its error body, its Retry-After.
    static func http(_ head: HTTPResponseHead, url: String, body: Data) -> ChatError {
        let message = ServerErrorBody.message(inBody: body)
        return .http(status: head.status, reason: head.reason, url: url, message: message.isEmpty ? head.reason : message,
                     retryAfter: head.header("Retry-After"))
    }
}
