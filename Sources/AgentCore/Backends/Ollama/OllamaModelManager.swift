import FoundationEssentials
import Synchronization

/// Manages the models of an Ollama server: lists them (`GET /api/tags`), pulls one with
/// streamed progress (`POST /api/pull`) and deletes one (`DELETE /api/delete`). Errors come
/// as `OllamaModelError` in Ollama's words, or `ChatError.transport` when it cannot be reached.
public struct OllamaModelManager: Sendable {
    /// The server's URL, key and CA file (its model and API path are not used).
    public let endpoint: ChatEndpoint

    public init(endpoint: ChatEndpoint) {
        self.endpoint = endpoint
    }

    /// The server's models, as it orders them.
    public func models() async throws -> [OllamaModelInfo] {
        let response = try await fetch(request(path: "/api/tags"))
        let json = try JSONParser.parse([UInt8](response.body))
        return (json["models"]?.arrayValue ?? []).compactMap(OllamaModelInfo.init)
    }

    /// Pulls `name`, reporting progress (on the transfer's thread) as Ollama streams it;
    /// returns once Ollama says "success". Cancelling the task closes the transfer and
    /// throws `CancellationError`.
    public func pull(_ name: String, onProgress: @escaping @Sendable (OllamaPullProgress) -> Void) async throws {
        let model = name.trimmed
        // A big model takes long; Ollama reports progress often but may say nothing while it verifies.
        var request = request(path: "/api/pull", method: "POST",
                              body: .object([("model", .string(model)), ("stream", .bool(true))]))
        request.totalTimeout = .seconds(24 * 60 * 60)
        request.idleTimeout = .seconds(10 * 60)
        let state = Mutex(PullState())
        let transportError = await HTTPTransfer.run(request,
            head: { head in state.withLock { $0.head = head } },
            continuing: { bytes in
                let progress = state.withLock { state -> [OllamaPullProgress] in
                    guard state.head?.isSuccess == true else {
                        if state.errorBody.count < 64 * 1024 { state.errorBody.append(contentsOf: bytes) }
                        return []
                    }
                    var lines: [[UInt8]] = []
                    state.lines.feed(bytes) { lines.append($0) }
                    return Self.read(lines, into: &state)
                }
                for step in progress { onProgress(step) }
                return state.withLock { $0.failure == nil }
            })
        let (trailing, outcome) = state.withLock { state -> ([OllamaPullProgress], Result<Void, any Error>) in
            if let head = state.head, !head.isSuccess {
                return ([], .failure(OllamaModelError.http(head, body: state.errorBody)))
            }
            var lines: [[UInt8]] = []
            if transportError == nil { state.lines.finish { lines.append($0) } }
            let trailing = Self.read(lines, into: &state)
            if let failure = state.failure { return (trailing, .failure(failure)) }
            if let transportError {
                return (trailing, .failure(ChatError(transportError, url: request.url) ?? CancellationError()))
            }
            return (trailing, state.tracker.succeeded ? .success(()) : .failure(OllamaModelError.pullEnded(model: model)))
        }
        for step in trailing { onProgress(step) }
        try outcome.get()
    }

    /// Deletes `name` from the server.
    public func delete(_ name: String) async throws {
        _ = try await fetch(request(path: "/api/delete", method: "DELETE", body: .object([("model", .string(name.trimmed))])))
    }

    /// The lines' progress; the first error line is kept in `state.failure` and ends the reading.
    private static func read(_ lines: [[UInt8]], into state: inout PullState) -> [OllamaPullProgress] {
        var progress: [OllamaPullProgress] = []
        let now = ContinuousClock.now
        for line in lines where state.failure == nil {
            guard let json = try? JSONParser.parse(line) else { continue }
            do {
                if let step = try state.tracker.read(json, at: now) { progress.append(step) }
            } catch {
                state.failure = error
            }
        }
        return progress
    }

    /// What a pull has received so far; guarded by the transfer's mutex.
    private struct PullState {
        var lines = NDJSONLineSplitter()
        var tracker = OllamaPullTracker()
        var head: HTTPResponseHead?
        var errorBody = Data()
        var failure: OllamaModelError?
    }

    private func request(path: String, method: String = "GET", body: JSONValue? = nil) -> HTTPRequest {
        var request = HTTPRequest(url: endpoint.url(forPath: path), method: method,
                                  headers: body == nil ? [] : [("Content-Type", "application/json; charset=utf-8")],
                                  body: body.map { Data($0.serialized.utf8) }, bearerToken: endpoint.apiKey?.value,
                                  caFile: endpoint.caFile)
        request.idleTimeout = endpoint.idleTimeout
        return request
    }

    /// A whole exchange; a transport failure or an error status throws.
    private func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await HTTPClient.fetch(request)
        } catch let error as TransportError {
            throw ChatError(error, url: request.url) ?? CancellationError()
        }
        guard response.head.isSuccess else { throw OllamaModelError.http(response.head, body: response.body) }
        return response
    }
}
