import FoundationEssentials
import Synchronization

/// The HTTP+SSE transport of MCP 2024-11-05, still served by older servers: a GET opens an
/// event stream whose first `endpoint` event names (often relative to it) the URL to POST
/// messages to; every answer arrives on the stream.
final class MCPLegacySSETransport: MCPTransport {
    private struct State {
        var endpoint: String?
        var stream: Task<Void, Never>?
        var closing = false
    }

    private let server: MCPHTTPServer
    private let log: MCPServerLog
    private let state = Mutex(State())
    private let endpointKnown = OneShotSignal()

    init(server: MCPHTTPServer, log: MCPServerLog) {
        self.server = server
        self.log = log
    }

    private var url: String { server.url }

    var answersWithinSend: Bool { false }

    func open(receive: @escaping @Sendable (JSONValue) -> Void, closed: @escaping @Sendable (String) -> Void) async throws {
        let request = server.request(method: "GET", protocolHeaders: [("Accept", "text/event-stream")],
                                     totalTimeout: .seconds(7 * 24 * 3600))
        let failure = Mutex<String?>(nil)
        let stream = Task {
            let parser = Mutex(SSEParser(limit: MCPHTTPTransport.answerLimit))
            let status = Mutex(0)
            let error = await HTTPTransfer.run(request, head: { head in status.withLock { $0 = head.status } }, continuing: { bytes in
                guard (200..<300).contains(status.withLock({ $0 })) else { return false }
                return parser.withLock { parser in
                    parser.feed(bytes) { event in self.handle(event, receive: receive) }
                    return !parser.overflowed
                }
            })
            let code = status.withLock { $0 }
            let reason = code != 0 && !(200..<300).contains(code) ? "HTTP \(code) from \(url)"
                : error.map(\.message) ?? "the event stream ended"
            failure.withLock { $0 = reason }
            endpointKnown.fire()
            if !state.withLock({ $0.closing }) { closed(reason) }
        }
        state.withLock { $0.stream = stream }
        guard await endpointKnown.wait(upTo: MCPServerConfig.defaultTimeout), state.withLock({ $0.endpoint }) != nil else {
            stream.cancel()
            throw MCPError.closed(failure.withLock { $0 } ?? "no endpoint event from \(url)")
        }
    }

    private func handle(_ event: SSEEvent, receive: @Sendable (JSONValue) -> Void) {
        switch event.type {
        case "endpoint":
            // Only on the stream's own origin: the user's headers (a token) go with every POST.
            let base = URL(string: url)
            if let resolved = URL(string: event.data.trimmed, relativeTo: base)?.absoluteURL,
               resolved.scheme == base?.scheme, resolved.host() == base?.host(), resolved.port == base?.port {
                state.withLock { $0.endpoint = resolved.absoluteString }
            } else {
                log.note("ignored an endpoint on another origin: \(event.data.prefix(200))")
            }
            endpointKnown.fire()
        case "message":
            if let json = try? JSONParser.parse(event.dataBytes) { receive(json) } else { log.note("skipped an event that is not JSON") }
        default:
            break
        }
    }

    func send(_ message: JSONValue) async throws {
        guard let endpoint = state.withLock({ $0.endpoint }) else { throw MCPError.closed("not connected") }
        let request = server.request(to: endpoint, method: "POST", protocolHeaders: [("Content-Type", "application/json")],
                                     body: Data(message.serialized.utf8), totalTimeout: .seconds(60),
                                     idleTimeout: HTTPRequest.defaultIdleTimeout)
        let response: HTTPResponse
        do {
            response = try await HTTPClient.fetch(request, maxBodyBytes: 64 * 1024)
        } catch let error as TransportError {
            throw error == .cancelled ? CancellationError() : MCPError.closed(error.message)
        }
        guard response.head.isSuccess else {
            throw MCPError.http(status: response.head.status, detail: ServerErrorBody.message(inBody: response.body))
        }
    }

    func negotiated(version: String) {}

    func close() async {
        let stream = state.withLock { state in
            state.closing = true
            return state.stream
        }
        stream?.cancel()
        await stream?.value
    }
}
