import FoundationEssentials

/// Why a reply failed, worded for the person reading the alert or the CLI's stderr.
public enum ChatError: Error, Sendable, Equatable, LocalizedError {
    /// The server answered with a non-success status. `message` is the server's own words
    /// (from its JSON error body, else the body, else the reason phrase).
    case http(status: Int, reason: String, url: String, message: String)
    /// The server could not be reached or the exchange failed before any reply arrived.
    case transport(url: String, message: String)
    /// The server reported an error inside the stream.
    case server(message: String)
    /// The stream ended before the server said the reply was complete.
    case cutOff(url: String, detail: String?)
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
        case .http(let status, let reason, let url, let message):
            let heading = "The server answered \(status) \(reason).\n\(url)"
            return message.isEmpty || message == reason ? heading : "\(heading)\n\n\(message)"
        case .transport(let url, let message):
            return "Could not get a reply from \(url):\n\(message)"
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
}
