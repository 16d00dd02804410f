import FoundationEssentials

/// An MCP server reached over HTTP: its URL, the headers the user configured (a token
/// among them) and the CA file to trust. Requests to it follow no redirects: the headers
/// are this one server's secrets.
struct MCPHTTPServer: Sendable {
    let url: String
    let headers: [MCPServerConfig.Variable]
    let caFile: String?

    /// A request to `target` (the server's URL unless another of its endpoints), with
    /// `protocolHeaders` first and the configured headers after them.
    func request(to target: String? = nil, method: String, protocolHeaders: [(name: String, value: String)], body: Data? = nil,
                 connectTimeout: Duration = .seconds(10), totalTimeout: Duration, idleTimeout: Duration? = nil) -> HTTPRequest {
        var request = HTTPRequest(url: target ?? url, method: method, headers: protocolHeaders + headers.map { ($0.name, $0.value) },
                                  body: body, caFile: caFile, connectTimeout: connectTimeout, totalTimeout: totalTimeout,
                                  idleTimeout: idleTimeout)
        request.followsRedirects = false
        return request
    }
}
