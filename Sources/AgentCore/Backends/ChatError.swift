import FoundationEssentials
import Glibc

/// Why a reply failed, worded for the person reading the alert or the CLI's stderr.
public enum ChatError: Error, Sendable, Equatable, LocalizedError {
    /// The server answered with a non-success status. `message` is the server's own words
    /// (from its JSON error body, else the body, else the reason phrase).
    /// `retryAfter`: the server's `Retry-After` (429, 503), as it sent it.
    case http(status: Int, reason: String, url: String, message: String, retryAfter: String? = nil)
    /// The server could not be reached or the exchange failed before any reply arrived:
    /// libcurl's words, and what its code says the user can act on.
    case transport(url: String, message: String, cause: TransportError.Cause?)
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

    /// A failed exchange with `url` as the user reads it; nil when it was cancelled.
    init?(_ error: TransportError, url: String) {
        switch error {
        case .cancelled: return nil
        case .failed(_, let message): self = .transport(url: url, message: message, cause: error.cause)
        case .stalled(let seconds): self = .stalled(url: url, seconds: seconds)
        }
    }

    /// Any error as the user should read it.
    public static func describe(_ error: any Error) -> String {
        if let description = (error as? LocalizedError)?.errorDescription { return description }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        // A file's error from Foundation: "path: the system's reason", as Unix tools word it.
        if let file = error as? CocoaError, let path = file.filePath, let reason = file.underlying.map(describe) {
            return "\(path): \(reason)"
        }
        return String(describing: error)
    }

    public var errorDescription: String? {
        switch self {
        case .http(let status, let reason, let url, let message, let retryAfter):
            // TRANSLATORS: %1$s is an HTTP status code, %2$s its reason phrase ("Not Found"), %3$s the URL.
            let heading = tr("The server answered %1$s %2$s.\n%3$s", String(status), reason, url)
            let text = message.isEmpty || message == reason ? heading : "\(heading)\n\n\(message)"
            return [text, Self.advice(status: status, retryAfter: retryAfter)].compactMap { $0 }.joined(separator: "\n\n")
        case .transport(let url, let message, let cause):
            // TRANSLATORS: %1$s is a URL, %2$s the network library's error message.
            let text = tr("Could not get a reply from %1$s:\n%2$s", url, message)
            return cause.map { text + "\n\n" + Self.advice($0) } ?? text
        case .stalled(let url, let seconds):
            // TRANSLATORS: %s is the server's URL.
            return trn("The server sent nothing for %d second, so Agent stopped waiting. What arrived is kept.\n%s",
                       "The server sent nothing for %d seconds, so Agent stopped waiting. What arrived is kept.\n%s", seconds, url)
        case .server(let message):
            return tr("The server reported an error:\n%s", message)
        case .cutOff(let url, let detail):
            let base = tr("The reply was cut off: the connection to %s ended before the server finished.", url)
            return detail.map { "\(base)\n\($0)" } ?? base
        case .invalidURL(let url):
            return tr("“%s” is not a usable server URL. It must be an http:// or https:// URL with a host.", url)
        case .localModel(let message):
            return message
        case .toolRoundLimit(let rounds):
            return trn("The model kept calling tools, so Agent stopped after %d round. The reply so far is kept.",
                       "The model kept calling tools, so Agent stopped after %d rounds. The reply so far is kept.", rounds)
        }
    }

    /// What the user can do when the exchange failed for `cause`.
    private static func advice(_ cause: TransportError.Cause) -> String {
        switch cause {
        case .untrustedCertificate:
            tr("If this is your own server with a self-signed certificate, give Agent its CA certificate (Preferences › Servers, or --ca-file). Certificates are always checked.")
        case .refused:
            tr("Nothing answers at that address. Check that the server is running, and its address and port in Preferences › Servers (or --server).")
        case .unknownHost:
            tr("That host name is not known. Check the server's address in Preferences › Servers (or --server), and the network connection.")
        }
    }

    /// What the user can do about an HTTP error status.
    private static func advice(status: Int, retryAfter: String?) -> String? {
        switch status {
        case 401, 403:
            return tr("Check the API key for this server (Preferences › Servers).")
        case 404:
            return tr("Check the server's URL and API path, and that it serves this model.")
        case 429, 503:
            if let seconds = retryAfter.flatMap({ Int($0.trimmedSpaces) }) {
                return status == 429
                    ? trn("The server is limiting requests: try again in %d second.", "The server is limiting requests: try again in %d seconds.", seconds)
                    : trn("The server is busy or down: try again in %d second.", "The server is busy or down: try again in %d seconds.", seconds)
            }
            if let time = retryAfter?.trimmedSpaces {
                // TRANSLATORS: %s is the time the server gave in its Retry-After header, as it sent it (an HTTP date).
                return status == 429 ? tr("The server is limiting requests: try again after %s.", time) : tr("The server is busy or down: try again after %s.", time)
            }
            return status == 429 ? tr("The server is limiting requests: try again in a while.") : tr("The server is busy or down: try again in a while.")
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
