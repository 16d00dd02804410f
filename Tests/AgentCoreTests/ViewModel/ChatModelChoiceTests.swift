@testable import AgentCore
import Foundation
import TestSupport
import Testing

@MainActor
@Suite("A model per chat: chosen, kept with the chat, carried by its requests")
struct ChatModelChoiceTests {
    let server = TestServer.shared

    func viewModel(_ scenario: String, model: String = "test-model", store: ChatStore) -> ChatViewModel {
        ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: model)), store: store)
    }

    func send(_ text: String, in model: ChatViewModel) async {
        model.draft = text
        model.send()
        await model.waitUntilIdle()
    }

    /// The `model` of each chat request the test server recorded for `marker`, in order.
    func requestedModels(_ marker: String) async throws -> [String] {
        try await server.requests(containing: marker).compactMap { ($0["body"] as? [String: Any])?["model"] as? String }
    }

    func waitFor(_ what: String, seconds: Int = 60, _ condition: () -> Bool) async throws {
        try #require(try await TestTiming.eventually(within: .seconds(seconds), condition), "\(what)")
    }

    @Test("The chosen model is stored with the chat, survives reopening, and is what the next requests carry")
    func chosenModelIsKeptAndSent() async throws {
        let marker = uniqueMarker()
        let file = temporaryDatabase()
        let model = viewModel("echo/\(marker)", store: try ChatStore(file: file))
        await send("one", in: model)
        model.choose(.server("test-model-large"))
        #expect(model.modelName == "test-model-large")
        await send("two", in: model)
        #expect(try await requestedModels(marker) == ["test-model", "test-model-large"])
        let chat = try #require(model.chat)
        let stored = try #require(try ChatStore(file: file).chat(chat.id))
        #expect(stored.chosenModel == .server("test-model-large"))
        #expect(stored.model == "test-model-large", "the model that answered is recorded apart")

        let reopened = viewModel("echo/\(marker)", store: try ChatStore(file: file))
        #expect(reopened.modelName == "test-model", "before the chat opens: the default")
        try reopened.open(chat.id)
        #expect(reopened.chosenModel == .server("test-model-large"))
        #expect(reopened.modelName == "test-model-large")
        await send("three", in: reopened)
        #expect(try await requestedModels(marker).last == "test-model-large")

        reopened.choose(nil)
        #expect(reopened.modelName == "test-model")
        #expect(try ChatStore(file: file).chat(chat.id)?.chosenModel == nil, "back to the default, kept so")
    }

    @Test("A new chat starts with the default; one chosen before the first message is saved with the chat")
    func newChatsStartWithTheDefault() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo/\(marker)", store: store)
        model.choose(.server("test-model-large"))
        await send("first chat", in: model)
        let first = try #require(model.chat)
        #expect(try store.chat(first.id)?.chosenModel == .server("test-model-large"))

        model.startNewChat()
        #expect(model.chosenModel == nil && model.modelName == "test-model")
        await send("second chat", in: model)
        let second = try #require(model.chat)
        #expect(try store.chat(second.id)?.chosenModel == nil)

        try model.open(first.id)
        #expect(model.modelName == "test-model-large", "switching chats switches the model")
        try model.open(second.id)
        #expect(model.modelName == "test-model")
        #expect(try await requestedModels(marker) == ["test-model-large", "test-model"])
    }

    @Test("A model the server no longer lists is detected when the list is fetched, at chat open")
    func goneFromTheList() async throws {
        let file = temporaryDatabase()
        let model = viewModel("knownmodels", store: try ChatStore(file: file))
        model.choose(.server("llama3:8b"))
        model.draft = "hello"
        model.send()
        await model.waitUntilIdle()
        let chat = try #require(model.chat)

        let reopened = viewModel("knownmodels", store: try ChatStore(file: file))
        #expect(reopened.goneModel == nil)
        try reopened.open(chat.id)
        try await waitFor("the server's list arrives") { reopened.models.server != .loading }
        #expect(reopened.models.server == .listed(["test-model", "test-model-large"]))
        #expect(reopened.goneModel == .server("llama3:8b"))

        reopened.choose(.server("test-model"))
        #expect(reopened.goneModel == nil)
        await send("again", in: reopened)
        #expect(reopened.conversation.messages.last?.text == "Echo: again (1 messages)", "the refused message never went")
    }

    @Test("A server's “model not found” when sending is said in the window, not in an alert; the message stays in the entry")
    func goneWhenSending() async throws {
        let model = viewModel("knownmodels", model: "llama3:8b", store: try ChatStore(file: temporaryDatabase()))
        model.draft = "hello"
        model.send()
        await model.waitUntilIdle()
        #expect(model.goneModel == .server("llama3:8b"), "the default model is gone too")
        #expect(!model.status.showError, "no alert: \(model.status.errorMessage)")
        #expect(model.draft == "hello")
        try await waitFor("the server's list arrives for the menu") { model.models.server != .loading }
        #expect(model.models.server == .listed(["test-model", "test-model-large"]))

        model.choose(.server("test-model-large"))
        #expect(model.goneModel == nil)
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.last?.text == "Echo: hello (1 messages)")
    }

    @Test("A local model the runtime no longer has, or a server's model with no server in use, is gone too; the default stays")
    func goneWithoutAServer() {
        let model = ChatViewModel(connection: ChatConnection(localServer: LocalModelServer()))
        model.models.local = [.smolLM2]
        model.choose(.local(.gemma3))
        #expect(model.goneModel == .local(.gemma3))
        #expect(model.connection.localModel == .smolLM2, "the default answers meanwhile")
        model.choose(.server("llama3:8b"))
        #expect(model.goneModel == .server("llama3:8b"))
        model.choose(nil)
        #expect(model.goneModel == nil)
    }

    @Test("A local model chosen for a chat while a server is the default runs with the threads set in Preferences, and follows a change")
    func localModelBesideAServerKeepsTheThreads() {
        // A file that is not there: the connection is made, and no llama-server starts.
        let file = LocalModel.file(URL(filePath: "/nonexistent/agent-threads-test.gguf"))
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("echo"), model: "test-model")))
        defer { model.connection.shutdown() }
        model.setLocalModels([file], threads: 1)
        model.choose(.local(file))
        #expect(model.connection.localModel == file)
        #expect(model.connection.localServer?.threads == 1)
        model.setLocalModels([file], threads: 2)
        #expect(model.connection.localServer?.threads == 2, "a change in Preferences reaches the chat's own local model")
        model.setLocalModels([file], threads: nil)
        #expect(model.connection.localServer?.threads == ProcessInfo.processInfo.activeProcessorCount, "nil: one per core")
    }

    @Test("Chats from before models were chosen per chat use the default")
    func migratedChatsUseTheDefault() throws {
        let store = try ChatStore(file: try ChatStoreSchemaTests.database(atVersion: 6))
        #expect(try store.chats().map(\.chosenModel) == [nil])
    }

    @Test("Choosing a local model for a chat on the local runtime restarts llama-server with that model")
    func localModelRestartsTheServer() async throws {
        let installed = try InstalledModels.builtIns()
        try #require(installed.contains(.gemma3) && installed.contains(.smolLM2), "the test runtime has both models")
        let server = LocalModelServer()
        let model = ChatViewModel(connection: ChatConnection(localServer: server,
                                                             options: GenerationOptions(temperature: 0, seed: 1, maxTokens: 8)))
        defer { model.connection.shutdown() }
        model.prepare()
        try await waitFor("SmolLM2 ready", seconds: 120) { model.status.connection == .ready }
        let smolPID = try #require(server.pid)

        model.choose(.local(.gemma3))
        #expect(model.connection.localModel == .gemma3)
        #expect(model.modelName == "Gemma-3-270M")
        await send("Hello", in: model)
        #expect(!model.status.showError, "\(model.status.errorMessage)")
        #expect(model.conversation.messages.last?.model == "Gemma-3-270M")
        try await waitFor("SmolLM2's server ends") { kill(smolPID, 0) != 0 }

        model.choose(nil)
        #expect(model.connection === model.defaultConnection && model.connection.localModel == .smolLM2)
    }
}
