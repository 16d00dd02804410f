import FoundationEssentials
import Synchronization

/// Whole-response HTTP requests (health checks, model lists) on top of `HTTPTransfer`.
public enum HTTPClient {
    /// Sends `request` and returns the complete response; cancelling the task cancels it.
    public static func fetch(_ request: HTTPRequest, maxBodyBytes: Int = 8 << 20) async throws -> HTTPResponse {
        struct Received {
            var head: HTTPResponseHead?
            var body = Data()
        }
        let received = Mutex(Received())
        let error = await HTTPTransfer.run(request,
            head: { head in received.withLock { $0.head = head } },
            body: { bytes in
                received.withLock { state in
                    let room = max(0, maxBodyBytes - state.body.count)
                    state.body.append(contentsOf: bytes.prefix(room))
                }
            })
        if let error { throw error }
        return received.withLock { state in
            HTTPResponse(head: state.head ?? HTTPResponseHead(status: 0, reason: "", headers: []), body: state.body)
        }
    }
}
