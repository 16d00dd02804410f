/// A connection that takes another's place on the same local model server: options and tools
/// are per request, so a change of them needs no new llama-server (which would load the
/// model again, and lose its cached prompt).
extension ChatConnection {
    /// This connection on `current`'s local model server when that one runs the same
    /// (`LocalModelServer.runsLike`); otherwise this connection itself.
    public func sharingServer(of current: ChatConnection) -> ChatConnection {
        guard case .local(let mine) = source, case .local(let theirs) = current.source, mine !== theirs,
              mine.runsLike(theirs) else { return self }
        let shared = ChatConnection(localServer: theirs, options: options, toolbox: toolbox, mcp: mcp)
        shared.onlyTools = onlyTools
        return shared
    }

    /// Whether both connections go to one and the same local model server.
    public func sharesServer(with other: ChatConnection) -> Bool {
        guard case .local(let mine) = source, case .local(let theirs) = other.source else { return false }
        return mine === theirs
    }
}
