import Foundation

/// Where replies come from for a session: a server the user named, or the local model
/// the app runs itself.
@MainActor
public final class ChatConnection {
    private enum Source {
        case remote(ChatEndpoint)
        case local(LocalModelServer)
    }

    private let source: Source
    public let options: GenerationOptions

    public init(endpoint: ChatEndpoint, options: GenerationOptions = GenerationOptions()) {
        source = .remote(endpoint)
        self.options = options
    }

    public init(localServer: LocalModelServer, options: GenerationOptions = GenerationOptions()) {
        source = .local(localServer)
        self.options = options
    }

    /// The model the user is talking to, as the window's header shows it.
    public var modelName: String {
        switch source {
        case .remote(let endpoint): endpoint.model
        case .local(let server): server.model.displayName
        }
    }

    /// Where the model runs, for the header: the server's host, or "on this computer".
    public var locationDescription: String {
        switch source {
        case .remote(let endpoint):
            URLComponents(string: endpoint.serverURL)?.host ?? endpoint.serverURL
        case .local:
            "on this computer"
        }
    }

    public var isLocal: Bool {
        if case .local = source { return true }
        return false
    }

    /// A backend ready for a request; for the local model this starts the server if needed.
    public func backend() async throws -> any ChatBackend {
        switch source {
        case .remote(let endpoint):
            return OpenAIChatClient(endpoint: endpoint, options: options)
        case .local(let server):
            return OpenAIChatClient(endpoint: try await server.endpoint(), options: options)
        }
    }

    /// Stops what this connection started (the local model server).
    public func shutdown() {
        if case .local(let server) = source { server.stop() }
    }
}
