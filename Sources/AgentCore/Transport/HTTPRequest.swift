import FoundationEssentials

/// An HTTP request as the transport sends it.
public struct HTTPRequest: Sendable {
    public var url: String
    public var method: String
    public var headers: [(name: String, value: String)]
    public var body: Data?
    /// Sent as `Authorization: Bearer …`; never logged.
    public var bearerToken: String?
    /// A PEM file of CA certificates that replaces the system bundle for this request
    /// (a self-signed server). TLS verification stays on either way.
    public var caFile: String?
    public var connectTimeout: Duration
    /// The whole exchange; replies from a slow model may take many minutes.
    public var totalTimeout: Duration
    /// How long the server may send nothing at all before the exchange is given up (a
    /// stalled server or network); nil: no limit.
    public var idleTimeout: Duration?
    /// Whether redirects are followed. MCP requests carry headers that are secrets of one
    /// server (API keys, the session id), so they are not.
    public var followsRedirects = true
    /// Whether the request goes straight to its host even when the environment names a proxy
    /// (`http_proxy`): a probe of this computer's own ports must reach nothing else.
    public var bypassesProxy = false

    public static let defaultIdleTimeout = Duration.seconds(60)

    public init(url: String, method: String = "GET", headers: [(name: String, value: String)] = [],
                body: Data? = nil, bearerToken: String? = nil, caFile: String? = nil,
                connectTimeout: Duration = .seconds(10), totalTimeout: Duration = .seconds(20 * 60),
                idleTimeout: Duration? = HTTPRequest.defaultIdleTimeout) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.bearerToken = bearerToken
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.idleTimeout = idleTimeout
    }
}

/// The status line and headers of a response.
public struct HTTPResponseHead: Sendable {
    public var status: Int
    /// The reason phrase from the status line (HTTP/1.x), or the standard one (HTTP/2).
    public var reason: String
    public var headers: [(name: String, value: String)]

    public func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// A complete, non-streamed response.
public struct HTTPResponse: Sendable {
    public var head: HTTPResponseHead
    public var body: Data
}
