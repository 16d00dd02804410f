import FoundationEssentials

/// The connection replies go through: started ahead of the first message, and switched —
/// never under a reply that is streaming — when Preferences or the chat's model change it.
extension ChatViewModel {
    /// Gets the connection ready ahead of the first message (starts the local model) for a
    /// window opening. A connection that cannot start says so in the status — not in an
    /// alert, which would take the keys the user is typing.
    public func prepare() {
        localModelReleased = false
        startPreparing()
    }

    /// Starts the connection ahead of the first message, unless the window let the local
    /// model go.
    func startPreparing() {
        guard connection.isLocal else {
            status.setConnection(.ready)
            return
        }
        guard !localModelReleased, status.connection == .idle else { return }
        status.setConnection(.starting)
        preparation += 1
        let (connection, mine) = (connection, preparation)
        // Superseded — the model let go of, another connection or preparation — the start
        // does not begin, or its end is no one's concern.
        let isCurrent = { mine == self.preparation && connection === self.connection }
        Task {
            guard isCurrent() else { return }
            do {
                _ = try await connection.backend()
                guard isCurrent() else { return }
                status.setConnection(.ready)
            } catch {
                guard isCurrent() else { return }
                status.setConnection(.unavailable(ChatError.describe(error)))
            }
        }
    }

    /// The window closed: the local model server stops now rather than when the app ends,
    /// which may be a minute later (it stays for the Shell's search), or, when a reply is
    /// still coming, once it has ended; the next window's `prepare` starts it again.
    public func releaseLocalModel() {
        localModelReleased = true
        guard !isSending else { return }
        stopLocalModel()
    }

    /// Stops the local model server, if the connection runs one; `prepare` starts it again.
    func stopLocalModel() {
        guard connection.isLocal else { return }
        preparation += 1
        connection.shutdown()
        status.setConnection(.idle)
    }

    /// Switches to another server or model (Preferences changed what the connection depends
    /// on); a chat with a model of its own keeps it, on the new server. A reply in flight
    /// finishes on the connection it started on; the new one takes over when it ends. What
    /// the old connection ran (the local model server) is stopped, unless the new one runs
    /// the same: then it carries on (`switchConnection`).
    public func use(_ newConnection: ChatConnection) {
        defaultConnection = newConnection
        missingModel = nil
        models.forgetServer()
        switchConnection(to: newConnection.choosing(chosenModel, localModels: models.local, localThreads: models.localThreads))
    }

    /// Makes `wanted` the one replies go through (once the reply in flight has ended). A local
    /// model server the current connection runs goes on serving `wanted` when it runs the
    /// same model the same way (only options or tools changed, or `wanted` is the current
    /// connection); otherwise it stops.
    func switchConnection(to wanted: ChatConnection) {
        if isSending {
            pendingConnection = wanted
            return
        }
        pendingConnection = nil
        let newConnection = wanted.sharingServer(of: connection)
        if wanted === defaultConnection { defaultConnection = newConnection }
        if !newConnection.sharesServer(with: connection) { connection.shutdown() }
        connection = newConnection
        status.setConnection(.idle)
        notify(.status)
        notify(.composer)
        startPreparing()
    }
}
