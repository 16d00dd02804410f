import Glibc
import FoundationEssentials

/// Where replies come from for a session: a server the user named, or the local model
/// the app runs itself.
@MainActor
public final class ChatConnection {
    enum Source {
        case remote(ChatEndpoint)
        case local(LocalModelServer)
        /// A server profile from Preferences; its key comes from the keyring when needed.
        case profile(ServerProfile, SecretStore, Duration?)
    }

    let source: Source
    public let options: GenerationOptions
    /// Agent's own tools the model may call through this connection.
    public let toolbox: Toolbox
    /// The MCP servers whose tools join them, less the tools switched off.
    public let mcp: MCPTools?
    /// When set, only the tools of these names are offered (`agent-cli --tools`).
    public var onlyTools: Set<String>?

    public init(endpoint: ChatEndpoint, options: GenerationOptions = GenerationOptions(), toolbox: Toolbox = Toolbox(),
                mcp: MCPTools? = nil) {
        source = .remote(endpoint)
        self.options = options
        self.toolbox = toolbox
        self.mcp = mcp
    }

    public init(localServer: LocalModelServer, options: GenerationOptions = GenerationOptions(), toolbox: Toolbox = Toolbox(),
                mcp: MCPTools? = nil) {
        source = .local(localServer)
        self.options = options
        self.toolbox = toolbox
        self.mcp = mcp
    }

    public init(profile: ServerProfile, secrets: SecretStore, options: GenerationOptions = GenerationOptions(),
                toolbox: Toolbox = Toolbox(), mcp: MCPTools? = nil, idleTimeout: Duration? = HTTPRequest.defaultIdleTimeout) {
        source = .profile(profile, secrets, idleTimeout)
        self.options = options
        self.toolbox = profile.toolsEnabled ? toolbox : Toolbox()
        self.mcp = profile.toolsEnabled ? mcp : nil
    }

    /// The connection the settings describe: the active server profile, or the local model.
    public static func fromSettings(_ settings: SettingsStore, secrets: SecretStore, toolbox: Toolbox, mcp: MCPHub? = nil) -> ChatConnection {
        let options = settings.generationOptions
        let tools = mcp.map { MCPTools(hub: $0, disabled: settings.disabledMCPTools) }
        if let profile = settings.serverProfiles.first(where: { $0.id == settings.activeProfileID }) {
            return ChatConnection(profile: profile, secrets: secrets, options: options, toolbox: toolbox, mcp: tools,
                                  idleTimeout: settings.idleTimeout)
        }
        return ChatConnection(localServer: LocalModelServer(model: settings.localModel, threads: settings.localThreads),
                              options: options, toolbox: toolbox, mcp: tools)
    }

    /// Everything replies through this connection depend on, to tell whether changed
    /// settings call for a new connection: where it goes, with which options and tools.
    /// (A profile's API key is looked up for each request, so it is not part of it.)
    public struct Configuration: Equatable, Sendable {
        fileprivate enum Destination: Equatable, Sendable {
            case endpoint(ChatEndpoint)
            case local(LocalModel, threads: Int)
            case profile(ServerProfile, Duration?)
        }

        fileprivate let destination: Destination
        fileprivate let options: GenerationOptions
        fileprivate let tools: [String]
        fileprivate let mcpToolsOff: Set<MCPToolKey>?
    }

    public var configuration: Configuration {
        let destination: Configuration.Destination = switch source {
        case .remote(let endpoint): .endpoint(endpoint)
        case .local(let server): .local(server.model, threads: server.threads)
        case .profile(let profile, _, let idleTimeout): .profile(profile, idleTimeout)
        }
        return Configuration(destination: destination, options: options, tools: toolbox.definitions.map(\.name),
                             mcpToolsOff: mcp?.disabled)
    }

    /// The model the user is talking to, as the window's header shows it.
    public var modelName: String {
        switch source {
        case .remote(let endpoint): endpoint.model
        case .local(let server): server.model.displayName
        case .profile(let profile, _, _): profile.model
        }
    }

    /// Where the model runs, for the header: the server's host, or "on this computer".
    public var locationDescription: String {
        switch source {
        case .remote(let endpoint):
            URL(string: endpoint.serverURL)?.host() ?? endpoint.serverURL
        case .profile(let profile, _, _):
            profile.name
        case .local:
            // TRANSLATORS: where the model runs, in the window's header, in place of a server's name.
            tr("on this computer")
        }
    }

    /// How many tokens of conversation (estimated) a request may carry: for the local model,
    /// once its server is up, what its real context leaves (`LocalModelServer.contextBudget`);
    /// otherwise `userBudget`, the user's setting.
    /// `settings`: a chat's own, whose longest reply the local model's budget leaves room for.
    public func contextBudget(default userBudget: Int, settings: ChatSettings? = nil) -> Int {
        let maxTokens = settings?.options(over: options).maxTokens ?? options.maxTokens
        guard case .local(let server) = source, let budget = server.contextBudget(maxTokens: maxTokens) else { return userBudget }
        return budget
    }

    /// What the local model's server said at `/props` once it was up (nil for others).
    public var localServerProps: ServerProps? {
        if case .local(let server) = source { return server.props }
        return nil
    }

    /// Whether this connection goes to a server given by its endpoint rather than by the
    /// settings (in the app, only `agent --server` makes one).
    public var isNamedServer: Bool {
        if case .remote = source { return true }
        return false
    }

    public var isLocal: Bool {
        if case .local = source { return true }
        return false
    }

    /// The model server the app runs itself, when chats go to it.
    public var localServer: LocalModelServer? {
        if case .local(let server) = source { return server }
        return nil
    }

    /// Refuses images for a model known to read text only: the local models Agent runs
    /// have no vision encoder. A remote model's abilities are its server's to say.
    public func checkCanRead(_ files: [AttachedFile]) throws(AttachedFile.Refusal) {
        guard isLocal, let image = files.first(where: { $0.kind == .image }) else { return }
        // TRANSLATORS: %1$s is a model's name, %2$s an image file's name.
        throw AttachedFile.Refusal(description: tr("the local model (%1$s) reads text only and cannot see “%2$s”. Remove the image, or choose a server with a vision model in Preferences.",
                                                   modelName, image.name))
    }

    /// A backend ready for a request; for the local model this starts the server if needed.
    /// `appID` identifies the chat to servers that keep context themselves (the harness);
    /// `options` replace the connection's own (a chat's settings).
    public func backend(appID: String = AppIdentity.applicationID, options: GenerationOptions? = nil) async throws -> any ChatBackend {
        let options = options ?? self.options
        var endpoint: ChatEndpoint
        switch source {
        case .remote(let remote): endpoint = remote
        case .local(let server): endpoint = try await server.endpoint()
        case .profile(let profile, let secrets, let idleTimeout):
            endpoint = profile.endpoint(apiKey: await secrets.key(for: profile.id))
            endpoint.idleTimeout = idleTimeout
        }
        switch endpoint.protocolKind {
        case .openai: return OpenAIChatClient(endpoint: endpoint, options: options)
        case .ollama: return OllamaChatClient(endpoint: endpoint, options: options)
        case .llmtools: return HarnessChatClient(endpoint: endpoint, appID: appID)
        }
    }

    /// `error` as the user should hear it: when the local model server died during the
    /// request, that is what happened (and the next request starts it again).
    public func explain(_ error: any Error) async -> any Error {
        guard case .local(let server) = source, Self.mayBeACrash(error), let end = await server.takeUnexpectedEnd() else {
            return error
        }
        let log = server.logFile.path
        switch end {
        case .exited(let status):
            // TRANSLATORS: %1$s is an exit status (a number), %2$s a file's path.
            return ChatError.localModel(tr("The local model (llama-server) stopped while answering: it exited with status %1$s. The reply so far is kept; your next message starts it again. Its log: %2$s", String(status), log))
        case .killed(SIGILL):
            // A build for another processor's instructions, or a compiler's bad code for them.
            // TRANSLATORS: %1$s is a command, %2$s a file's path.
            return ChatError.localModel(tr("The local model (llama-server) stopped while answering, at an instruction this processor does not run (signal 4). The reply so far is kept. Build it again for this computer with: %1$s   (in Agent's source folder: scripts/install-runtime). Its log: %2$s", LocalRuntime.installCommand, log))
        case .killed(let signal):
            // TRANSLATORS: %1$s is a signal's number, %2$s a file's path.
            return ChatError.localModel(tr("The local model (llama-server) stopped while answering: it was killed by signal %1$s. The reply so far is kept; your next message starts it again. Its log: %2$s", String(signal), log))
        case .stopped:
            // TRANSLATORS: %s is a file's path.
            return ChatError.localModel(tr("The local model (llama-server) stopped while answering. The reply so far is kept; your next message starts it again. Its log: %s", log))
        }
    }

    /// Whether a dying server could have caused `error` (the stream or connection broke).
    private static func mayBeACrash(_ error: any Error) -> Bool {
        switch error {
        case ChatError.cutOff, ChatError.transport, ChatError.stalled: true
        default: false
        }
    }

    /// Every tool the model may call now: Agent's own and the MCP servers' (waiting for
    /// servers still starting).
    public func currentToolbox() async -> Toolbox {
        let everything = await mcp?.adding(to: toolbox) ?? toolbox
        guard let onlyTools else { return everything }
        return Toolbox(everything.tools.filter { onlyTools.contains($0.definition.name) })
    }

    /// A turn through this connection's backend with its tools; `settings`: a chat's own
    /// temperature, reply length and whether it offers tools, over the connection's.
    public func turn(appID: String = AppIdentity.applicationID, settings: ChatSettings? = nil) async throws -> ChatTurn {
        let backend = try await backend(appID: appID, options: settings?.options(over: options))
        return ChatTurn(backend: backend, toolbox: settings?.toolsEnabled == false ? Toolbox() : await currentToolbox())
    }

    /// Stops what this connection started (the local model server); returns at once.
    public func shutdown() {
        if case .local(let server) = source { server.stop() }
    }

    /// Stops what this connection started and waits until it has ended (a program about to
    /// exit that leaves nothing behind).
    public func shutdownAndWait() async {
        if case .local(let server) = source { await server.stopAndWait() }
    }
}
