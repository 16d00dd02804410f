import FoundationEssentials
import Synchronization

/// MCP's Streamable HTTP transport: every message is a POST to one URL, answered with JSON
/// or an event stream (progress, requests from the server, then the response, after which
/// the stream is closed a moment later if the server has not ended it); the session id from
/// `initialize` and the negotiated version go with every later request, and the session is
/// ended with DELETE. A 404 to a request that carried the session means the server forgot
/// it (`MCPError.sessionExpired`): the client initializes again.
final class MCPHTTPTransport: MCPTransport {
    private struct State {
        var sessionID: String?
        var version: String?
        var receive: (@Sendable (JSONValue) -> Void)?
    }

    private let server: MCPHTTPServer
    private let log: MCPServerLog
    private let state = Mutex(State())
    /// The most one answer may hold; a 10 MB tool result fits.
    static let answerLimit = 64 << 20
    /// How long a POST's event stream may stay open after it carried the response.
    static let streamEndGrace = Duration.seconds(1)

    init(server: MCPHTTPServer, log: MCPServerLog) {
        self.server = server
        self.log = log
    }

    var answersWithinSend: Bool { true }

    func open(receive: @escaping @Sendable (JSONValue) -> Void, closed: @escaping @Sendable (String) -> Void) async throws {
        state.withLock { $0.receive = receive }
    }

    func negotiated(version: String) {
        state.withLock { $0.version = version }
    }

    private struct Exchange {
        var head: HTTPResponseHead?
        var parser = SSEParser(limit: MCPHTTPTransport.answerLimit)
        var body = Data()
        /// A successful answer as an event stream (told once, from the head).
        var streamsEvents = false
    }

    /// How a POST's exchange ends: its transfer, or the grace after the answer.
    private enum StreamEnd {
        case transfer(TransportError?)
        case graceOver
    }

    func send(_ message: JSONValue) async throws {
        let (sessionID, version, receive) = state.withLock { ($0.sessionID, $0.version, $0.receive) }
        guard let receive else { throw MCPError.closed("not connected") }
        let method = message["method"]?.stringValue
        let requestNumber = method == nil ? nil : message["id"]?.intValue
        let requestVersion = message["params"]?["_meta"]?["io.modelcontextprotocol/protocolVersion"]?.stringValue ?? version
        var lines: [(name: String, value: String)] = [("Accept", "application/json, text/event-stream"),
                                                     ("Content-Type", "application/json")]
        if let sessionID { lines.append(("Mcp-Session-Id", sessionID)) }
        if let requestVersion { lines.append(("MCP-Protocol-Version", requestVersion)) }
        if requestVersion == MCPProtocolVersion.stateless, let method {
            lines.append(("Mcp-Method", method))
            if let name = message["params"]?["name"]?.stringValue { lines.append(("Mcp-Name", Self.headerSafe(name))) }
        }
        let request = server.request(method: "POST", protocolHeaders: lines, body: Data(message.serialized.utf8),
                                     totalTimeout: .seconds(24 * 3600))
        let exchange = Mutex(Exchange())
        let answered = OneShotSignal()
        let error = await withTaskGroup(of: StreamEnd.self) { group -> TransportError? in
            group.addTask { @Sendable in
                .transfer(await HTTPTransfer.run(request, head: { head in
                    exchange.withLock { exchange in
                        exchange.head = head
                        exchange.streamsEvents = head.isSuccess && head.header("Content-Type")?.lowercased().hasPrefix("text/event-stream") == true
                    }
                    // Kept before the answer is handed on: the client's next message needs it.
                    if method == "initialize", head.isSuccess, let newSession = head.header("Mcp-Session-Id") {
                        self.state.withLock { $0.sessionID = newSession }
                    }
                }, continuing: { bytes in
                    exchange.withLock { exchange -> Bool in
                        guard exchange.streamsEvents else {
                            guard exchange.body.count + bytes.count <= Self.answerLimit else { return false }
                            exchange.body.append(contentsOf: bytes)
                            return true
                        }
                        exchange.parser.feed(bytes) { event in
                            guard !event.dataBytes.isEmpty else { return }
                            guard let json = try? JSONParser.parse(event.dataBytes) else {
                                self.log.note("skipped an event that is not JSON")
                                return
                            }
                            receive(json)
                            if let requestNumber, JSONRPCMessage.answers(json, request: requestNumber) { answered.fire() }
                        }
                        return !exchange.parser.overflowed
                    }
                }))
            }
            // The server should end the stream once it has carried the answer; one that keeps
            // it open is closed a moment later (not at once: a stream the server ends leaves
            // its connection for the next request).
            group.addTask {
                // Cancelled — the transfer ended, or the send was — it stops waiting at once.
                let cancelled = OneShotSignal()
                await withTaskCancellationHandler {
                    _ = await answered.wait(upTo: nil)
                    _ = await cancelled.wait(upTo: Self.streamEndGrace)
                } onCancel: {
                    answered.fire()
                    cancelled.fire()
                }
                return .graceOver
            }
            var error: TransportError?
            for await end in group {
                if case .transfer(let ended) = end { error = ended }
                // Either end ends the other: the timer with the transfer, the transfer after the grace.
                group.cancelAll()
            }
            return error
        }
        let (head, body) = exchange.withLock { ($0.head, $0.body) }
        if let error, head == nil || error != .cancelled {
            if error == .cancelled { throw CancellationError() }
            throw MCPError.closed(error.message)
        }
        guard let head else { throw MCPError.closed("no answer from \(server.url)") }
        if head.status == 404 && sessionID != nil {
            state.withLock { if $0.sessionID == sessionID { $0.sessionID = nil } }
            throw MCPError.sessionExpired
        }
        let json = body.isEmpty ? nil : try? JSONParser.parse([UInt8](body))
        guard head.isSuccess else {
            // A JSON-RPC error for this request (a refused version, say) is its answer.
            if let json, let id = json["id"], !id.isNull, json["error"] != nil {
                receive(json)
                return
            }
            throw MCPError.http(status: head.status, detail: ServerErrorBody.message(inBody: body))
        }
        if let json { receive(json) }
    }

    func close() async {
        guard let sessionID = state.withLock({ state -> String? in
            defer { state.sessionID = nil; state.receive = nil }
            return state.sessionID
        }) else { return }
        var lines: [(name: String, value: String)] = [("Mcp-Session-Id", sessionID)]
        if let version = state.withLock({ $0.version }) { lines.append(("MCP-Protocol-Version", version)) }
        _ = try? await HTTPClient.fetch(server.request(method: "DELETE", protocolHeaders: lines,
                                                       connectTimeout: .seconds(3), totalTimeout: .seconds(5)))
    }

    /// A header value as the stateless protocol wants names outside ASCII: `=?base64?…?=`.
    private static func headerSafe(_ name: String) -> String {
        name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? name : "=?base64?\(Data(name.utf8).base64EncodedString())?="
    }
}
