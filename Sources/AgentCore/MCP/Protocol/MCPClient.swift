import Synchronization

/// One connection to one MCP server, in the client's role: the handshake (or, for a
/// stateless 2026-07-28 server, `server/discover` and `_meta` on every request), requests
/// matched to their answers by id, time limits and cancellation (`notifications/cancelled`),
/// progress, and an answer to every request the server sends (`ping`, and "method not
/// found" for what Agent does not serve — a server waits for ever otherwise).
final class MCPClient: Sendable {
    /// What the handshake settled about the server.
    struct ServerInfo: Sendable, Equatable {
        var protocolVersion: String
        /// Whether it has tools at all (`capabilities.tools`): a server of only prompts or
        /// resources is not asked for a list.
        var offersTools: Bool
    }

    private struct Pending {
        let continuation: CheckedContinuation<JSONValue, any Error>
        let progressToken: String?
        let progress: (@Sendable (String) -> Void)?
    }

    private struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        /// The task sending each request still in the caller's hands, so a cancellation
        /// goes out only after its request.
        var senders: [Int: Task<Void, Never>] = [:]
        var stateless = false
        var closedError: MCPError?
        /// A new handshake after the HTTP server forgot the session, shared by every
        /// request that found so.
        var renewal: Task<Void, any Error>?
    }

    private let transport: any MCPTransport
    private let state = Mutex(State())
    private let onToolsChanged: @Sendable () -> Void
    private let onClosed: @Sendable (String) -> Void
    private let log: @Sendable (String) -> Void

    init(transport: any MCPTransport, onToolsChanged: @escaping @Sendable () -> Void = {},
         onClosed: @escaping @Sendable (String) -> Void = { _ in }, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.transport = transport
        self.onToolsChanged = onToolsChanged
        self.onClosed = onClosed
        self.log = log
    }

    private static var clientInfo: JSONValue {
        .object([("name", .string(AppIdentity.name)), ("version", .string(AppIdentity.version))])
    }

    /// Opens the transport and agrees on a protocol: `initialize` first (every handshake-era
    /// server, and dual-era ones, answer it); when the server refuses it, `server/discover`
    /// for a stateless server. A refusal from both reports the `initialize` one.
    func connect(timeout: Duration) async throws -> ServerInfo {
        try await transport.open(receive: { [weak self] in self?.handle($0) },
                                 closed: { [weak self] in self?.connectionEnded($0) })
        do {
            return try await initialize(timeout: timeout)
        } catch let refusal as MCPError {
            switch refusal {
            case .rpc, .http(400, _):
                log("initialize was refused (\(refusal)); trying the stateless protocol")
                state.withLock { $0.stateless = true }
                guard let info = try? await discover(timeout: timeout) else {
                    state.withLock { $0.stateless = false }
                    throw refusal
                }
                return info
            default:
                throw refusal
            }
        }
    }

    private func initialize(timeout: Duration) async throws -> ServerInfo {
        let result = try await request("initialize", params: .object([
            ("protocolVersion", .string(MCPProtocolVersion.offered)),
            ("capabilities", .object([])),
            ("clientInfo", Self.clientInfo),
        ]), timeout: timeout)
        guard let version = result["protocolVersion"]?.stringValue else {
            throw MCPError.invalidResponse("initialize answered without a protocolVersion")
        }
        guard MCPProtocolVersion.handshake.contains(version) else { throw MCPError.unsupportedVersion(version) }
        transport.negotiated(version: version)
        try await transport.send(JSONRPCMessage.makeNotification(method: "notifications/initialized", params: nil))
        return ServerInfo(protocolVersion: version, offersTools: result["capabilities"]?["tools"] != nil)
    }

    private func discover(timeout: Duration) async throws -> ServerInfo {
        let result = try await request("server/discover", params: nil, timeout: timeout)
        let versions = result["supportedVersions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard versions.contains(MCPProtocolVersion.stateless) else {
            throw MCPError.unsupportedVersion(versions.joined(separator: ", "))
        }
        transport.negotiated(version: MCPProtocolVersion.stateless)
        return ServerInfo(protocolVersion: MCPProtocolVersion.stateless, offersTools: result["capabilities"]?["tools"] != nil)
    }

    /// Every tool, page after page.
    func listTools(timeout: Duration) async throws -> [MCPToolDescription] {
        var tools: [MCPToolDescription] = []
        var cursor: String?
        var cursorsSeen: Set<String> = []
        repeat {
            let params: JSONValue? = cursor.map { .object([("cursor", .string($0))]) }
            let result = try await request("tools/list", params: params, timeout: timeout)
            guard let page = result["tools"]?.arrayValue else { throw MCPError.invalidResponse("tools/list answered without tools") }
            tools += page.compactMap(MCPToolDescription.init)
            cursor = result["nextCursor"]?.stringValue
            // A cursor given twice, or endless pages, would list for ever.
            if let next = cursor, !cursorsSeen.insert(next).inserted || cursorsSeen.count > 100 { break }
        } while cursor != nil
        return tools
    }

    /// Calls `name`; `progress` hears the server's progress notifications as text.
    func callTool(_ name: String, arguments: JSONValue, timeout: Duration,
                  progress: (@Sendable (String) -> Void)? = nil) async throws -> JSONValue {
        try await request("tools/call", params: .object([("name", .string(name)), ("arguments", arguments)]),
                          timeout: timeout, progress: progress)
    }

    /// Ends the connection (the transport stops what it started).
    func close() async {
        failWaiting(MCPError.closed("Agent closed the connection"))
        await transport.close()
    }

    // MARK: Requests

    /// Sends a request and waits for its answer. On time-out or cancellation the server is
    /// told with `notifications/cancelled` (never for `initialize`), and a late answer is dropped.
    func request(_ method: String, params: JSONValue?, timeout: Duration,
                 progress: (@Sendable (String) -> Void)? = nil) async throws -> JSONValue {
        let (id, stateless) = state.withLock { state in
            defer { state.nextID += 1 }
            return (state.nextID, state.stateless)
        }
        let progressToken = progress.map { _ in "agent-\(id)" }
        let message = JSONRPCMessage.makeRequest(id: id, method: method,
                                             params: Self.withMeta(params, progressToken: progressToken, stateless: stateless))
        defer { state.withLock { _ = $0.senders.removeValue(forKey: id) } }
        do {
            let result = try await withTimeout(timeout, onTimeout: { MCPError.timedOut(method: method, seconds: Int(timeout.components.seconds)) }) {
                try await self.exchange(id: id, method: method, message: message, progressToken: progressToken, progress: progress)
            }
            if result["resultType"]?.stringValue == "input_required" {
                throw MCPError.invalidResponse("the server asked for input Agent cannot give")
            }
            return result
        } catch {
            if method != "initialize", error is CancellationError || Self.isTimeout(error) {
                tellCancelled(id: id, error: error)
            }
            throw error
        }
    }

    private func exchange(id: Int, method: String, message: JSONValue, progressToken: String?,
                          progress: (@Sendable (String) -> Void)?) async throws -> JSONValue {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refusal = state.withLock { state -> (any Error)? in
                    if let closedError = state.closedError { return closedError }
                    if Task.isCancelled { return CancellationError() }
                    state.pending[id] = Pending(continuation: continuation, progressToken: progressToken, progress: progress)
                    return nil
                }
                if let refusal {
                    continuation.resume(throwing: refusal)
                    return
                }
                let sender = Task {
                    do {
                        try await self.sendRenewingSession(message, isHandshake: method == "initialize")
                        // Over Streamable HTTP the answer comes within the exchange: an
                        // exchange that ended without one (a 202, a stream closed early) never will.
                        if self.transport.answersWithinSend {
                            self.settle(id, .failure(MCPError.invalidResponse("the server ended the exchange without answering \(method)")))
                        }
                    } catch {
                        self.settle(id, .failure(error))
                    }
                }
                state.withLock { state in
                    state.senders[id] = sender
                }
            }
        } onCancel: {
            self.settle(id, .failure(CancellationError()))
        }
    }

    /// Sends `message`; when an HTTP server has forgotten the session, initializes again
    /// (once, for every request that found so) and sends it once more.
    private func sendRenewingSession(_ message: JSONValue, isHandshake: Bool) async throws {
        do {
            try await transport.send(message)
        } catch MCPError.sessionExpired where !isHandshake {
            let renewal = state.withLock { state -> Task<Void, any Error> in
                if let running = state.renewal { return running }
                let task = Task<Void, any Error> {
                    defer { self.state.withLock { $0.renewal = nil } }
                    _ = try await self.initialize(timeout: MCPServerConfig.defaultTimeout)
                }
                state.renewal = task
                return task
            }
            try await renewal.value
            try await transport.send(message)
        }
    }

    private static func isTimeout(_ error: any Error) -> Bool {
        if case MCPError.timedOut = error { return true }
        return false
    }

    private func tellCancelled(id: Int, error: any Error) {
        let reason = error is CancellationError ? "the user stopped the reply" : "\(error)"
        let notice = JSONRPCMessage.makeNotification(method: "notifications/cancelled", params: .object([
            ("requestId", .number(Double(id))), ("reason", .string(reason)),
        ]))
        let sender = state.withLock { $0.senders[id] }
        Task {
            await sender?.value
            try? await self.transport.send(notice)
        }
    }

    /// Resolves request `id` (its answer, a failure, a cancellation), once.
    private func settle(_ id: Int, _ outcome: Result<JSONValue, any Error>) {
        let (pending, sender) = state.withLock { ($0.pending.removeValue(forKey: id), $0.senders[id]) }
        guard let pending else { return }
        if case .failure = outcome { sender?.cancel() }
        pending.continuation.resume(with: outcome)
    }

    /// `params` with what `_meta` must carry: the progress token, and for a stateless server
    /// the protocol version, capabilities and client.
    private static func withMeta(_ params: JSONValue?, progressToken: String?, stateless: Bool) -> JSONValue? {
        var meta: [(key: String, value: JSONValue)] = []
        if let progressToken { meta.append(("progressToken", .string(progressToken))) }
        if stateless {
            meta += [("io.modelcontextprotocol/protocolVersion", .string(MCPProtocolVersion.stateless)),
                     ("io.modelcontextprotocol/clientCapabilities", .object([])),
                     ("io.modelcontextprotocol/clientInfo", clientInfo)]
        }
        guard !meta.isEmpty else { return params }
        var members = params?.objectValue ?? []
        members.removeAll { $0.key == "_meta" }
        members.append(("_meta", .object(meta)))
        return .object(members)
    }

    // MARK: What the server sends

    private func handle(_ json: JSONValue) {
        if case .array(let batch) = json {
            batch.forEach(handle)
            return
        }
        guard let message = JSONRPCMessage(json) else {
            log("skipped a message that is not JSON-RPC: \(json.serialized.prefix(200))")
            return
        }
        switch message {
        case .response(let id, let outcome):
            guard let number = JSONRPCMessage.requestNumber(id) else { return }
            settle(number, outcome.mapError { $0 })
        case .request(let id, let method, _):
            let answer = method == "ping"
                ? JSONRPCMessage.makeResult(id: id, .object([]))
                : JSONRPCMessage.makeError(id: id, code: JSONRPCMessage.methodNotFound, message: "Method not found")
            if method != "ping" { log("answered the server's \(method) request: Agent does not serve it") }
            Task { try? await self.transport.send(answer) }
        case .notification(let method, let params):
            switch method {
            case "notifications/progress":
                reportProgress(params)
            case "notifications/tools/list_changed":
                onToolsChanged()
            case "notifications/message":
                log("server log: \(params?["data"]?.stringValue ?? params?["data"]?.serialized ?? "")")
            default:
                break
            }
        }
    }

    private func reportProgress(_ params: JSONValue?) {
        guard let params, let token = params["progressToken"]?.stringValue ?? params["progressToken"]?.intValue.map(String.init) else { return }
        let listener = state.withLock { state in state.pending.values.first { $0.progressToken == token }?.progress }
        guard let listener else { return }
        var text = params["message"]?.stringValue ?? ""
        if let done = params["progress"], done.numberValue != nil {
            let count = params["total"].flatMap { $0.numberValue == nil ? nil : "\(done.serialized)/\($0.serialized)" } ?? done.serialized
            text = text.isEmpty ? count : "\(text) (\(count))"
        }
        listener(text)
    }

    /// The server ended the connection.
    private func connectionEnded(_ reason: String) {
        if failWaiting(MCPError.closed(reason)) { onClosed(reason) }
    }

    /// Marks the connection over and fails every request waiting on it; false when it
    /// already was.
    @discardableResult
    private func failWaiting(_ error: MCPError) -> Bool {
        let waiting = state.withLock { state -> [(Pending, Task<Void, Never>?)]? in
            guard state.closedError == nil else { return nil }
            state.closedError = error
            defer { state.pending = [:] }
            return state.pending.map { ($0.value, state.senders[$0.key]) }
        }
        guard let waiting else { return false }
        for (pending, sender) in waiting {
            sender?.cancel()
            pending.continuation.resume(throwing: error)
        }
        return true
    }
}
