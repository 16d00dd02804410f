@testable import AgentCore
import CProcess
import Foundation
import Synchronization
import TestSupport
import Testing

/// A transfer engine left idle for its linger ends: its thread goes and the connections it
/// kept are closed (so an idle app returns to its idle descriptors and threads); the next
/// transfer starts it again.
@Suite("Transfer engine linger")
struct TransferEngineLingerTests {
    /// The body of a GET of `url` run by `engine`, or the error that ended it; `cancelled`
    /// cancels the calling task first, so the transfer is handed over already cancelled.
    private func fetch(_ url: String, on engine: TransferEngine, cancelled: Bool = false) async -> Result<String, TransportError> {
        let body = Mutex(Data())
        let task = Task {
            await HTTPTransfer.run(HTTPRequest(url: url), engine: engine, head: { _ in }, continuing: { bytes in
                body.withLock { $0.append(contentsOf: bytes) }
                return true
            })
        }
        if cancelled { task.cancel() }
        if let outcome = await task.value { return .failure(outcome) }
        return .success(String(decoding: body.withLock { $0 }, as: UTF8.self))
    }

    @Test("Idle for its linger, the engine closes its kept connection and ends; the next transfer starts it again")
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

    @Test("Transfers handed over while the engine retires each end once: replies, refusals and transfers cancelled before they began",
          .timeLimit(.minutes(5)))
    func transfersAsTheEngineRetires() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        // No linger: the engine retires whenever it has nothing running, as often as it can.
        let engine = TransferEngine(linger: .zero)
        let closedPort = "http://127.0.0.1:\(agent_free_loopback_port())/"
        for _ in 0..<20 {
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        switch index % 3 {
                        case 0: (try? await fetch(server.url("tokens-2"), on: engine).get()).map { $0.contains("t1 ") ? "reply" : $0 } ?? "failed"
                        case 1: (try? await fetch(closedPort, on: engine).get()) == nil ? "refused" : "answered"
                        default: await fetch(server.url("tokens-2"), on: engine, cancelled: true).failure == .cancelled ? "cancelled" : "ran"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.sorted() == ["cancelled", "cancelled", "refused", "refused", "reply", "reply"])
        }
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
