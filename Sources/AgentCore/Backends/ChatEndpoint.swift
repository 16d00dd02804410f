import FoundationEssentials

/// An API key held in memory only. It never appears in descriptions, logs or dumps
/// that go through Swift's printing.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// Where and how to ask for chat completions: the server's URL plus the API path.
public struct ChatEndpoint: Sendable, Equatable {
    /// Scheme, host, port and optional leading path, e.g. `http://127.0.0.1:8080`.
    public var serverURL: String
    /// How to talk to the server.
    public var protocolKind: ChatProtocol
    /// E.g. `/v1/chat/completions`, `/api/chat`, or the harness's `/llmprompt`.
    public var apiPath: String
    public var model: String
    public var apiKey: APIKey?
    /// A PEM file with the CA that signed a self-signed server's certificate.
    public var caFile: String?
    /// How long the server may send nothing before Agent stops waiting (nil: no limit).
    public var idleTimeout: Duration? = HTTPRequest.defaultIdleTimeout

    public static let defaultAPIPath = ChatProtocol.openai.defaultAPIPath

    /// `apiPath` nil: the protocol's usual path.
    public init(serverURL: String, protocol protocolKind: ChatProtocol = .openai, apiPath: String? = nil, model: String,
                apiKey: APIKey? = nil, caFile: String? = nil) {
        self.serverURL = serverURL
        self.protocolKind = protocolKind
        self.apiPath = apiPath ?? protocolKind.defaultAPIPath
        self.model = model
        self.apiKey = apiKey
        self.caFile = caFile
    }

    /// Whether a request can be sent to `url`: an http or https URL that names a host.
    public static func isUsable(serverURL url: String) -> Bool {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let host = URLComponents(string: url)?.host else { return false }
        return !host.isEmpty && !host.contains(where: \.isWhitespace)
    }

    /// The full request URL: server URL and API path joined with exactly one slash.
    public var url: String { url(forPath: apiPath) }

    /// Another path on the same server (a model list, say).
    public func url(forPath path: String) -> String {
        var base = Substring(serverURL)
        while base.hasSuffix("/") { base = base.dropLast() }
        return String(base) + (path.hasPrefix("/") ? path : "/" + path)
    }
}
