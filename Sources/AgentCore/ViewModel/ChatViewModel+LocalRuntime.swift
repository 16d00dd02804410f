import FoundationEssentials

extension ChatViewModel {
    /// The local model server whose runtime (or built-in model) is not installed, when chats
    /// go to it: the window then offers to set it up. Nil otherwise — also for a GGUF file of
    /// the user's that has gone, which no set-up can bring back (starting it says so).
    public var localServerMissingRuntime: LocalModelServer? {
        guard let server = connection.localServer else { return nil }
        guard let runtime = try? LocalRuntime.locate(in: server.runtimeDirectory) else { return server }
        return server.model.file == nil && !runtime.has(server.model) ? server : nil
    }

    /// The local runtime has just been installed: a connection that found it missing starts
    /// the model now.
    public func localRuntimeInstalled() {
        guard case .unavailable = status.connection, connection.isLocal else { return }
        status.setConnection(.idle)
        prepare()
    }
}
