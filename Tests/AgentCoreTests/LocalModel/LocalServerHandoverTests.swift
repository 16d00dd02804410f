@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// A connection switched for one that runs the same local model: the llama-server already
/// running goes on serving it, not stopped and loaded again; one that runs another stops.
@MainActor
@Suite("Switching connections on the local model (real llama-server)", .serialized)
struct LocalServerHandoverTests {
    /// A view model on the local model, its llama-server up; the server's process.
    func readyLocalModel(options: GenerationOptions = GenerationOptions(temperature: 0, seed: 1, maxTokens: 8))
        async throws -> (ChatViewModel, pid_t) {
        let model = ChatViewModel(connection: ChatConnection(localServer: LocalModelServer(), options: options))
        model.prepare()
        try #require(try await TestTiming.eventually(within: .seconds(120)) { model.status.connection == .ready },
                     "the local model ready: \(model.status.connection)")
        return (model, try #require(model.connection.localServer?.pid))
    }

    func isRunning(_ pid: pid_t) -> Bool {
        LocalModelServerTests.llamaServers().contains(pid)
    }

    @Test("Preferences changing only what a request asks for (the temperature) keeps llama-server running: the new connection answers on it")
    func optionsChangeKeepsTheServer() async throws {
        let (model, pid) = try await readyLocalModel()
        defer { model.connection.shutdown() }
        model.use(ChatConnection(localServer: LocalModelServer(), options: GenerationOptions(temperature: 0.5, seed: 1, maxTokens: 8)))
        #expect(model.connection.options.temperature == 0.5, "the new connection's options")
        #expect(model.connection === model.defaultConnection)
        #expect(model.connection.localServer?.pid == pid, "the same llama-server")
        try #require(try await TestTiming.eventually(within: .seconds(10)) { model.status.connection == .ready })
        model.draft = "Hello"
        model.send()
        await model.waitUntilIdle()
        #expect(!model.status.showError, "\(model.status.errorMessage)")
        #expect(model.conversation.messages.last?.state == .done)
        #expect(model.connection.localServer?.pid == pid && isRunning(pid), "it answered, still running")
    }

    @Test("A switch back to the connection in use, chosen while a reply streams, leaves its llama-server running")
    func switchBackKeepsTheServer() async throws {
        let (model, pid) = try await readyLocalModel()
        defer { model.connection.shutdown() }
        let connection = model.connection
        // A file that is not there: its connection is only ever pending, no llama-server starts.
        let other = LocalModel.file(URL(filePath: "/nonexistent/agent-handover-test.gguf"))
        model.setLocalModels([.smolLM2, other], threads: nil)
        model.draft = "Hello"
        model.send()
        #expect(model.isSending)
        model.choose(.local(other))
        model.choose(nil)
        await model.waitUntilIdle()
        #expect(model.connection === connection)
        #expect(connection.localServer?.pid == pid && isRunning(pid), "the same llama-server, not stopped and started again")
        #expect(model.status.connection == .ready || model.status.connection == .starting)
    }

    @Test("A connection to another local model stops the llama-server of the one it replaces")
    func anotherModelStopsTheServer() async throws {
        let (model, pid) = try await readyLocalModel()
        defer { model.connection.shutdown() }
        // A file that is not there: the new connection's llama-server never starts.
        model.use(ChatConnection(localServer: LocalModelServer(model: .file(URL(filePath: "/nonexistent/agent-handover-test.gguf")))))
        #expect(try await TestTiming.eventually(within: .seconds(5)) { !isRunning(pid) }, "llama-server \(pid) outlived its connection")
    }

    @Test("Let go of while it starts (the window closed at once), the local model stays idle, not failed; prepared again, it starts")
    func releasedWhileStarting() async throws {
        let model = ChatViewModel(connection: ChatConnection(localServer: LocalModelServer()))
        defer { model.connection.shutdown() }
        model.prepare()
        #expect(model.status.connection == .starting)
        model.releaseLocalModel()
        #expect(model.status.connection == .idle)
        // The start's end, a failure ("stopped while starting"), comes after.
        try await Task.sleep(for: .milliseconds(500))
        #expect(model.status.connection == .idle, "\(model.status.connection)")
        #expect(model.connection.localServer?.pid == nil)
        model.prepare()
        try #require(try await TestTiming.eventually(within: .seconds(120)) { model.status.connection == .ready },
                     "started again: \(model.status.connection)")
        #expect(isRunning(try #require(model.connection.localServer?.pid)))
    }

    @Test("Let go of once its start has begun, and prepared again at once (the window closed and opened again): the first start's end does not mark it failed; it becomes ready")
    func releasedAndPreparedAgain() async throws {
        let model = ChatViewModel(connection: ChatConnection(localServer: LocalModelServer()))
        defer { model.connection.shutdown() }
        model.prepare()
        try #require(try await TestTiming.eventually(within: .seconds(60)) { model.connection.localServer?.pid != nil }, "the start began")
        model.releaseLocalModel()
        model.prepare()
        try #require(try await TestTiming.eventually(within: .seconds(120)) { model.status.connection != .starting },
                     "the second start ended")
        #expect(model.status.connection == .ready, "\(model.status.connection)")
    }

    @Test("A preparation superseded before its start began (Preferences switching twice at once) starts nothing: no second llama-server")
    func supersededPreparationStartsNothing() async throws {
        let first = ChatConnection(localServer: LocalModelServer(threads: 1))
        let model = ChatViewModel(connection: first)
        defer { model.connection.shutdown() }
        model.prepare()
        model.use(ChatConnection(localServer: LocalModelServer(threads: 2)))
        try #require(try await TestTiming.eventually(within: .seconds(120)) { model.status.connection == .ready }, "\(model.status.connection)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(first.localServer?.pid == nil, "the first connection's llama-server was started, and left running")
    }

    @Test("Let go of while a reply is coming (the window closed during it): the local model finishes the reply, then stops; the next window starts it again")
    func releasedDuringAReply() async throws {
        let (model, pid) = try await readyLocalModel()
        defer { model.connection.shutdown() }
        model.draft = "Hello"
        model.send()
        #expect(model.isSending)
        model.releaseLocalModel()
        #expect(isRunning(pid), "the reply goes on")
        await model.waitUntilIdle()
        #expect(model.conversation.messages.last?.state == .done, "\(model.status.errorMessage)")
        #expect(try await TestTiming.eventually(within: .seconds(5)) { !isRunning(pid) }, "stopped once the reply ended")
        #expect(model.status.connection == .idle)
        model.prepare()
        try #require(try await TestTiming.eventually(within: .seconds(120)) { model.status.connection == .ready })
    }
}
