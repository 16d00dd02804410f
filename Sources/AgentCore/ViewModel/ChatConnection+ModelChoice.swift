/// A chat's own model on top of the default connection: the same server with another of its
/// models, or a model the app runs itself.
extension ChatConnection {
    /// This connection with `choice` in place of its model: another of the server's models (the
    /// same server, options and tools), or one of `localModels` run by the app's llama-server
    /// (with `localThreads` when a server is the default; nil: one per core). Nil, the model it
    /// has already, a server model with no server (the local default) or a local model not among
    /// `localModels` keep this connection.
    public func choosing(_ choice: ModelChoice?, localModels: [LocalModel], localThreads: Int? = nil) -> ChatConnection {
        guard let choice else { return self }
        let chosen: ChatConnection
        switch (choice.place, source) {
        case (.server, .remote(var endpoint)):
            guard endpoint.model != choice.name else { return self }
            endpoint.model = choice.name
            chosen = ChatConnection(endpoint: endpoint, options: options, toolbox: toolbox, mcp: mcp)
        case (.server, .profile(var profile, let secrets, let idleTimeout)):
            guard profile.model != choice.name else { return self }
            profile.model = choice.name
            chosen = ChatConnection(profile: profile, secrets: secrets, options: options, toolbox: toolbox, mcp: mcp,
                                    idleTimeout: idleTimeout)
        case (.server, .local):
            return self
        case (.thisComputer, .local(let server)):
            guard let model = localModels.first(where: { $0.id == choice.name }), model != server.model else { return self }
            chosen = ChatConnection(localServer: server.serving(model), options: options, toolbox: toolbox, mcp: mcp)
        case (.thisComputer, .remote), (.thisComputer, .profile):
            guard let model = localModels.first(where: { $0.id == choice.name }) else { return self }
            chosen = ChatConnection(localServer: LocalModelServer(model: model, threads: localThreads), options: options, toolbox: toolbox, mcp: mcp)
        }
        chosen.onlyTools = onlyTools
        return chosen
    }

    /// The server whose models the model menu lists, with its key; nil for the local model.
    public func serverEndpoint() async -> ChatEndpoint? {
        switch source {
        case .remote(let endpoint): endpoint
        case .profile(let profile, let secrets, _): profile.endpoint(apiKey: await secrets.key(for: profile.id))
        case .local: nil
        }
    }

    /// The local model this connection runs, if it runs one.
    public var localModel: LocalModel? {
        if case .local(let server) = source { return server.model }
        return nil
    }
}
