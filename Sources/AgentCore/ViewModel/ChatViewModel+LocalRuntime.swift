import FoundationEssentials

extension ChatViewModel {
    /// The local model server whose runtime (or model) is not installed, when chats go to
    /// it: the window then offers to set it up. Nil otherwise.
    public var localServerMissingRuntime: LocalModelServer? {
        guard let server = connection.localServer else { return nil }
        guard let runtime = try? LocalRuntime.locate(in: server.runtimeDirectory), runtime.has(server.model) else { return server }
        return nil
    }

    /// The local runtime has just been installed: a connection that found it missing starts
    /// the model now.
    public func localRuntimeInstalled() {
        guard case .unavailable = status.connection, connection.isLocal else { return }
        status.setConnection(.idle)
        prepare()
    }
}
