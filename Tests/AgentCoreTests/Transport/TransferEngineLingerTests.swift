@testable import AgentCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// A transfer engine left idle for its linger ends: its thread goes and the connections it
/// kept are closed (so an idle app returns to its idle descriptors and threads); the next
/// transfer starts it again.
@Suite("Transfer engine linger")
struct TransferEngineLingerTests {
    /// The body of a GET of `url` run by `engine`, or the error that ended it.
    private func fetch(_ url: String, on engine: TransferEngine) async -> Result<String, TransportError> {
        let body = Mutex(Data())
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<TransportError?, Never>) in
            HTTPTransfer(request: HTTPRequest(url: url), handlers: HTTPTransferHandlers(
                head: { _ in },
                body: { bytes in body.withLock { $0.append(contentsOf: bytes) } },
                complete: { continuation.resume(returning: $0) }), engine: engine).start()
        }
        if let outcome { return .failure(outcome) }
        return .success(String(decoding: body.withLock { $0 }, as: UTF8.self))
    }

    @Test("Idle for its linger, the engine closes its kept connection and ends; the next transfer starts it again",
          .timeLimit(.minutes(2)))
    func endsWhenIdle() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let engine = TransferEngine(linger: .milliseconds(300))
        #expect(try await fetch(server.url("tokens-2"), on: engine).get().contains("t1 "))
        #expect(try await TestTiming.eventually { !engine.isRunning }, "the engine ends")
        #expect(try await server.stats { $0.open == 0 }.open == 0, "its kept connection is closed")
        #expect(try await fetch(server.url("tokens-2"), on: engine).get().contains("t1 "))
        let stats = try await server.stats()
        #expect(stats.requests == 2)
        #expect(stats.connections == 2, "the kept connection went with the engine")
    }
}
