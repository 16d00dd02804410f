import Synchronization

/// One configured MCP server over its life: started in the background (after the user
/// allowed a stdio command they did not type themselves), its tools listed and kept up to
/// date, calls made, restarted on next use after it exited, stopped on quit. Its status is
/// readable from any thread for the window and `--list-tools`.
public actor MCPServer {
    public enum Status: Sendable, Equatable {
        case stopped
        case starting
        case ready(tools: [MCPToolDescription], protocolVersion: String)
        /// It could not start: the reason, and its last stderr lines.
        case failed(String)
        /// It ran and ended: restarted when next needed.
        case exited(String)
        /// The user did not allow its command to run.
        case declined
        case disabled
    }

    public nonisolated let config: MCPServerConfig
    public nonisolated let log: MCPServerLog
    private nonisolated let statusBox: Mutex<Status>
    private let onChange: @Sendable () -> Void
    private let approveLaunch: @Sendable (MCPServerConfig) async -> Bool
    private let caFile: String?
    private var client: MCPClient?
    /// The launch a start waits for; a stop forgets it, so the next start launches anew.
    private var starting: Task<Void, Never>?
    /// Counts stops: a start that began before the latest stop gives up what it started.
    private var stops = 0
    /// Removed from the configuration: it never starts again (a turn may still hold its tools).
    private var retired = false

    public init(config: MCPServerConfig, caFile: String? = nil, log: MCPServerLog? = nil,
                approveLaunch: @escaping @Sendable (MCPServerConfig) async -> Bool,
                onChange: @escaping @Sendable () -> Void = {}) {
        self.config = config
        self.caFile = config.caFile ?? caFile
        self.log = log ?? MCPServerLog(serverName: config.name)
        self.approveLaunch = approveLaunch
        self.onChange = onChange
        statusBox = Mutex(config.disabled ? .disabled : .stopped)
    }

    public nonisolated var status: Status { statusBox.withLock { $0 } }

    /// The tools it offers now (none unless it is ready).
    public nonisolated var tools: [MCPToolDescription] {
        if case .ready(let tools, _) = status { return tools }
        return []
    }

    private func setStatus(_ status: Status) {
        statusBox.withLock { $0 = status }
        onChange()
    }

    private var timeout: Duration { config.timeout ?? MCPServerConfig.defaultTimeout }
    private var startTimeout: Duration { config.startTimeout ?? timeout }

    /// Starts it unless it runs, is starting (then waits for that), is disabled or was
    /// declined; `retry` also restarts one that failed to start.
    public func start(retry: Bool = false) async {
        guard !retired else { return }
        if let starting {
            await starting.value
            return
        }
        switch status {
        case .stopped, .exited: break
        case .failed where retry: break
        default: return
        }
        let task = Task { await self.launch() }
        starting = task
        await task.value
        if starting == task { starting = nil }
    }

    private func launch() async {
        let stopsBefore = stops
        if config.isStdio {
            guard await approveLaunch(config) else {
                log.note("the user did not allow the command to run")
                // A launch stopped meanwhile leaves the status to the one after it.
                if stops == stopsBefore { setStatus(.declined) }
                return
            }
            guard stops == stopsBefore, !retired else { return }
        }
        setStatus(.starting)
        do {
            let (client, info) = try await connect()
            let version = info.protocolVersion
            let tools: [MCPToolDescription]
            do {
                tools = info.offersTools ? try await client.listTools(timeout: startTimeout) : []
            } catch {
                await client.close()
                throw error
            }
            guard stops == stopsBefore, !retired else {
                await client.close()
                return
            }
            self.client = client
            log.note("ready: \(tools.count) tools, protocol \(version)")
            setStatus(.ready(tools: tools, protocolVersion: version))
        } catch {
            guard stops == stopsBefore else { return }
            let lines = log.lastLines
            setStatus(.failed("\(error)" + (lines.isEmpty ? "" : "\n\(lines)")))
        }
    }

    /// Connects over the configured transport; a Streamable HTTP URL that refuses the POST
    /// (400, 404, 405) is tried with the old HTTP+SSE transport, as the spec advises.
    private func connect() async throws -> (MCPClient, MCPClient.ServerInfo) {
        do {
            return try await connect(over: transport(for: config.transport))
        } catch MCPError.http(let status, let detail) {
            guard case .http(let url, let headers) = config.transport, [400, 404, 405].contains(status) else {
                throw MCPError.http(status: status, detail: detail)
            }
            log.note("HTTP \(status) to the first POST; trying the HTTP+SSE transport")
            return try await connect(over: MCPLegacySSETransport(server: MCPHTTPServer(url: url, headers: headers, caFile: caFile), log: log))
        }
    }

    private func connect(over transport: any MCPTransport) async throws -> (MCPClient, MCPClient.ServerInfo) {
        let identity = Mutex<ObjectIdentifier?>(nil)
        let client = MCPClient(transport: transport,
                               onToolsChanged: { [weak self] in Task { await self?.refreshTools() } },
                               onClosed: { [weak self] reason in
                                   guard let from = identity.withLock({ $0 }) else { return }
                                   Task { await self?.ended(reason, client: from) }
                               },
                               log: { [log] in log.note($0) })
        identity.withLock { $0 = ObjectIdentifier(client) }
        do {
            let info = try await client.connect(timeout: startTimeout)
            return (client, info)
        } catch {
            await client.close()
            throw error
        }
    }

    private func transport(for transport: MCPServerConfig.Transport) -> any MCPTransport {
        switch transport {
        case .stdio(let command, let arguments, let environment, let workingDirectory):
            MCPStdioTransport(command: command, arguments: arguments, environment: environment,
                              workingDirectory: workingDirectory, log: log)
        case .http(let url, let headers):
            MCPHTTPTransport(server: MCPHTTPServer(url: url, headers: headers, caFile: caFile), log: log)
        case .sse(let url, let headers):
            MCPLegacySSETransport(server: MCPHTTPServer(url: url, headers: headers, caFile: caFile), log: log)
        }
    }

    /// The server said its tools changed.
    private func refreshTools() async {
        guard let client, case .ready(_, let version) = status else { return }
        if let tools = try? await client.listTools(timeout: timeout) {
            log.note("tools changed: \(tools.count) tools")
            setStatus(.ready(tools: tools, protocolVersion: version))
        }
    }

    /// `client`'s connection ended by itself (a newer client's status is left alone).
    private func ended(_ reason: String, client from: ObjectIdentifier) {
        guard let client, ObjectIdentifier(client) == from else { return }
        self.client = nil
        Task { await client.close() }
        let lines = log.lastLines
        setStatus(.exited(reason + (lines.isEmpty ? "" : "\n\(lines)")))
    }

    /// Calls `tool` (the server's own name), starting the server again if it had ended.
    func call(_ tool: String, arguments: JSONValue, progress: @escaping @Sendable (String) -> Void) async throws -> JSONValue {
        if client == nil { await start() }
        guard let client else { throw MCPError.closed(statusReason) }
        do {
            return try await client.callTool(tool, arguments: arguments, timeout: timeout, progress: progress)
        } catch MCPError.closed(let reason) {
            // Known now, not only when the transport's own report arrives.
            ended(reason, client: ObjectIdentifier(client))
            throw MCPError.closed(reason)
        }
    }

    /// Why it cannot answer, in one line (the model reads it; stderr stays in the window and the log).
    private var statusReason: String {
        switch status {
        case .failed(let reason), .exited(let reason): String(reason.prefix { $0 != "\n" })
        case .declined: "the user did not allow it to start"
        case .disabled: "it is switched off"
        default: "it is not running"
        }
    }

    /// Stops it (closing its process or session); it stays stopped until started again.
    public func stop() async {
        stops += 1
        // A launch under way gives up what it started: a start after this one must not wait for it.
        starting = nil
        let client = client
        self.client = nil
        await client?.close()
        if client != nil || status == .starting { setStatus(config.disabled ? .disabled : .stopped) }
    }

    /// Stops it for good: it was removed from the configuration or switched off.
    public func retire() async {
        retired = true
        await stop()
    }
}
