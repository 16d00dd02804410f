/// Why talking to an MCP server failed, in words a user (and the model) can read.
public enum MCPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered a request with a JSON-RPC error.
    case rpc(code: Int, message: String)
    /// No answer within the time limit (the request was cancelled on the server).
    case timedOut(method: String, seconds: Int)
    /// The connection ended: the process exited, the stream closed.
    case closed(String)
    /// The server speaks no protocol version Agent knows.
    case unsupportedVersion(String)
    /// The server sent something that is not what the protocol says.
    case invalidResponse(String)
    /// The HTTP server answered with an error status.
    case http(status: Int, detail: String)
    /// The HTTP session is gone (404 to a request that carried its id): initialize again.
    case sessionExpired

    public var description: String {
        switch self {
        case .rpc(let code, let message): "MCP error \(code): \(message)"
        case .timedOut(let method, let seconds): "no answer to \(method) within \(seconds) s"
        case .closed(let reason): "the connection ended (\(reason))"
        case .unsupportedVersion(let version): "the server speaks MCP version \(version), which Agent does not support"
        case .invalidResponse(let detail): "the server's answer is not valid MCP: \(detail)"
        case .http(let status, let detail): "HTTP \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        case .sessionExpired: "the server forgot the session"
        }
    }
}
