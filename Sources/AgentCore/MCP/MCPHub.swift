import Synchronization

/// Every configured MCP server, and their tools for the model: servers start in the
/// background, a turn waits for those still starting (and restarts those that ended), the
/// tools get names unique across servers and Agent's own, and everything stops on quit.
public final class MCPHub: Sendable {
    private let serverList = Mutex<[MCPServer]>([])
    private let approver: any MCPToolApprover
    private let approveLaunch: @Sendable (MCPServerConfig) async -> Bool
    private let caFile: String?
    private let onChange: @Sendable () -> Void

    /// `approveLaunch` is asked before a stdio server's command first runs; `onChange`
    /// hears every status change (from any thread).
    public init(configs: [MCPServerConfig], approver: any MCPToolApprover, caFile: String? = nil,
                approveLaunch: @escaping @Sendable (MCPServerConfig) async -> Bool,
                onChange: @escaping @Sendable () -> Void = {}) {
        self.approver = approver
        self.approveLaunch = approveLaunch
        self.caFile = caFile
        self.onChange = onChange
        serverList.withLock { $0 = configs.map(self.makeServer) }
    }

    private func makeServer(_ config: MCPServerConfig) -> MCPServer {
        MCPServer(config: config, caFile: caFile, approveLaunch: approveLaunch, onChange: onChange)
    }

    public var servers: [MCPServer] { serverList.withLock { $0 } }

    /// Starts every enabled server and returns when each is ready or has failed — or when the
    /// caller is cancelled (agent-cli's Ctrl+C), while they go on starting.
    public func startAllAndWait() async {
        await start(servers, waitingUpTo: nil)
    }

    /// Replaces the configuration: servers whose entry is gone or changed stop, new and
    /// changed ones start. Returns when the old ones have stopped.
    public func reload(_ configs: [MCPServerConfig]) async {
        let (stopped, started) = serverList.withLock { list -> ([MCPServer], [MCPServer]) in
            let kept = list.filter { server in configs.contains(server.config) }
            let stopped = list.filter { server in !configs.contains(server.config) }
            let added = configs.filter { config in !kept.contains { $0.config == config } }.map(makeServer)
            list = configs.compactMap { config in (kept + added).first { $0.config == config } }
            return (stopped, added)
        }
        for server in stopped { await server.retire() }
        onChange()
        for server in started { Task { await server.start() } }
    }

    /// Restarts one server (Preferences' retry).
    public func restart(_ name: String) async {
        guard let server = servers.first(where: { $0.config.name == name }) else { return }
        await server.stop()
        await server.start(retry: true)
    }

    /// How long a turn waits for servers still starting (or waiting for the user to allow
    /// them) before it goes on with the tools of those that are ready.
    public static let startWait = Duration.seconds(30)

    /// The tools for a turn: waits (up to `startWait`, and no longer than the turn lasts)
    /// for servers still starting, restarts those that ended, leaves out `disabled`
    /// (server, tool) pairs, and names them apart from `reserved`.
    public func tools(reserved: Set<String>, disabled: Set<MCPToolKey> = []) async -> [any Tool] {
        let servers = servers
        let waiting = servers.filter { server in
            switch server.status {
            case .starting, .exited, .stopped: true
            default: false
            }
        }
        if !waiting.isEmpty { await start(waiting, waitingUpTo: Self.startWait) }
        var offered: [(server: MCPServer, tool: MCPToolDescription)] = []
        for server in servers {
            for tool in server.tools where !disabled.contains(MCPToolKey(server: server.config.name, tool: tool.name)) {
                offered.append((server, tool))
            }
        }
        let names = MCPToolNames.assign(offered.map { ($0.server.config.name, $0.tool.name) }, reserved: reserved)
        return zip(names, offered).map { name, entry in
            MCPTool(exposedName: name, mcpServer: entry.server, description: entry.tool, approver: approver)
        }
    }

    /// Starts `servers` and waits until each is ready or has failed, `limit` (if any) has
    /// passed, or the caller is cancelled. Not the caller's own task: a server's start goes on
    /// when the caller gives up waiting.
    private func start(_ servers: [MCPServer], waitingUpTo limit: Duration?) async {
        // Stopped already (Ctrl+C before the servers' start): none is started.
        guard !Task.isCancelled else { return }
        let allStarted = OneShotSignal()
        Task {
            await withTaskGroup(of: Void.self) { group in
                for server in servers { group.addTask { await server.start() } }
            }
            allStarted.fire()
        }
        await withTaskCancellationHandler {
            _ = await allStarted.wait(upTo: limit)
        } onCancel: {
            allStarted.fire()
        }
    }

    /// Stops every server and waits until each has ended.
    public func stopAll() async {
        await withTaskGroup(of: Void.self) { group in
            for server in servers { group.addTask { await server.stop() } }
        }
    }
}

/// One tool of one server, as the user's choices about it are kept.
public struct MCPToolKey: Sendable, Hashable {
    public let server: String
    public let tool: String

    public init(server: String, tool: String) {
        self.server = server
        self.tool = tool
    }

    /// As it is stored in settings: `server` and `tool` joined by a tab.
    public var stored: String { server + "\t" + tool }

    public init?(stored: String) {
        let parts = stored.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(server: String(parts[0]), tool: String(parts[1]))
    }
}
