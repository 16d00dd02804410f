import FoundationEssentials

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
    /// The tools the model may call through this connection.
    public let toolbox: Toolbox

    public init(endpoint: ChatEndpoint, options: GenerationOptions = GenerationOptions(), toolbox: Toolbox = Toolbox()) {
        source = .remote(endpoint)
        self.options = options
        self.toolbox = toolbox
    }

    public init(localServer: LocalModelServer, options: GenerationOptions = GenerationOptions(), toolbox: Toolbox = Toolbox()) {
        source = .local(localServer)
        self.options = options
        self.toolbox = toolbox
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
    /// `appID` identifies the chat to servers that keep context themselves (the harness).
    public func backend(appID: String = AppIdentity.applicationID) async throws -> any ChatBackend {
        let endpoint: ChatEndpoint
        switch source {
        case .remote(let remote): endpoint = remote
        case .local(let server): endpoint = try await server.endpoint()
        }
        switch endpoint.protocolKind {
        case .openai: return OpenAIChatClient(endpoint: endpoint, options: options)
        case .ollama: return OllamaChatClient(endpoint: endpoint, options: options)
        case .llmtools: return HarnessChatClient(endpoint: endpoint, appID: appID)
        }
    }

    /// A turn through this connection's backend with its tools.
    public func turn(appID: String = AppIdentity.applicationID) async throws -> ChatTurn {
        ChatTurn(backend: try await backend(appID: appID), toolbox: toolbox)
    }

    /// Stops what this connection started (the local model server).
    public func shutdown() {
        if case .local(let server) = source { server.stop() }
    }
}
