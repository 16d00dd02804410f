@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// Consecutive requests to one server go over one kept-alive connection, over HTTP and
/// HTTPS; Stop closes only its own transfer; a kept-alive connection the server has closed
/// is retried on a new one without the user seeing it. Each test runs its replies on a
/// transfer engine of its own, as the app runs all of its on one: in the process's, shared by
/// the whole test run's servers, a test's idle connection could be let go (libcurl keeps the
/// 64 most recently used) while other tests open theirs.
@Suite("Connection reuse")
struct ConnectionReuseTests {
    /// This test's own (each test has an instance of the suite), lingering as the process's does.
    private let engine = TransferEngine(linger: TransferEngine.shared.linger)

    /// The reply's text, or the error that ended it.
    private func reply(_ url: String, caFile: String? = nil) async -> Result<String, any Error> {
        var client = OpenAIChatClient(endpoint: ChatEndpoint(serverURL: url, model: "m", caFile: caFile))
        client.engine = engine
        var text = ""
        do {
            for try await event in client.replyEvents(to: [ChatMessage(role: .user, text: "hi", state: .done)]) {
                if case .text(let piece) = event { text += piece }
            }
            return .success(text)
        } catch {
            return .failure(error)
        }
    }

    @Test("Five replies in a row open one connection", arguments: [false, true])
    func fiveRepliesOneConnection(tls: Bool) async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        for _ in 0..<5 {
            let text = try await reply(server.url("tokens-5", tls: tls), caFile: tls ? server.caFile : nil).get()
            #expect(text == "t0 t1 t2 t3 t4 ")
        }
        let stats = try await server.stats()
        #expect(stats.requests == 5)
        #expect(stats.connections == 1, "every reply after the first reuses the first one's connection")
    }

    @Test("Stop closes only its own reply's connection; the other goes on and is reused after",
          .timeLimit(.minutes(2)))
    func stopClosesOnlyItsOwn() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let kept = Task { await reply(server.url("held")) }
        let stopped = Task { await reply(server.url("held")) }
        let both = try await server.stats { $0.open == 2 }
        #expect(both.open == 2, "two replies at once need two connections")
        stopped.cancel()
        // The server goes on sending until released: the stopped reply ends only by Stop.
        _ = await stopped.value
        let afterStop = try await server.stats { $0.open == 1 }
        #expect(afterStop.open == 1, "the stopped reply's connection is closed, the other's is not")
        try await server.release()
        let text = try await kept.value.get()
        #expect(text.hasPrefix("t0 "), "the other reply goes on to its end")
        #expect(try await reply(server.url("tokens-2")).get() == "t0 t1 ")
        let end = try await server.stats()
        #expect(end.connections == 2, "the third reply reuses the kept reply's connection")
    }

    @Test("A kept-alive connection closed by the server is retried on a new one", arguments: [false, true])
    func droppedConnectionRetried(tls: Bool) async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let caFile = tls ? server.caFile : nil
        #expect(try await reply(server.url("drop", tls: tls), caFile: caFile).get() == "t0 t1 t2 ")
        #expect(try await reply(server.url("drop", tls: tls), caFile: caFile).get() == "t0 t1 t2 ",
                "the second reply arrives although its first connection was closed under it")
        let stats = try await server.stats()
        #expect(stats.dropped == 1)
        #expect(stats.connections == 2)
    }
}
