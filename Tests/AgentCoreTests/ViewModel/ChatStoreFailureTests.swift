@testable import AgentCore
import Foundation
import TestSupport
import Testing

@MainActor
@Suite("When the store refuses or the chat changes under a reply")
struct ChatStoreFailureTests: ViewModelTesting {
    @Test("Saves that fail (a locked database) are shown to the user, not lost in silence")
    func failedSavesAreReported() async throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file, busyTimeout: .milliseconds(50))
        let model = viewModel("echo", store: store)
        await send("first, while the store takes it", in: model)
        #expect(!model.status.showError)

        let lock = try SQLiteDatabase(path: file.path)
        try lock.execute("BEGIN EXCLUSIVE")
        await send("second, while another program holds the database", in: model)
        try await waitFor { model.status.showError }
        #expect(model.status.errorMessage.contains("Could not save the chat") && model.status.errorMessage.contains("locked"),
                "\(model.status.errorMessage)")
        #expect(model.status.errorHeading == "Chat Storage Error", "the store's error, not the model's")
        try lock.execute("ROLLBACK")
    }

    @Test("Editing while the store refuses: the old version stays in the store, the user is told")
    func refusedEditKeepsEverything() async throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file, busyTimeout: .milliseconds(50))
        let model = viewModel("echo", store: store)
        await send("keep me", in: model)
        model.beginEdit(model.conversation[0].id)
        model.draft = "replace me"
        let lock = try SQLiteDatabase(path: file.path)
        try lock.execute("BEGIN EXCLUSIVE")
        model.send()
        await model.waitUntilIdle()
        try await waitFor { model.status.showError }
        #expect(model.status.errorMessage.contains("Could not save the chat"), "\(model.status.errorMessage)")
        try lock.execute("ROLLBACK")
        let chat = try #require(model.chat)
        #expect(try store.messages(in: chat.id).prefix(2).map(\.message.text) == ["keep me", "Echo: keep me (1 messages)"])
    }

    @Test("Another chat opened while a reply streams: the reply is settled as Stop settles it, here and in the store")
    func abandonedReplyIsSettled() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("stall", store: store)
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        model.draft = "wait for it"
        model.send()
        try await waitFor { model.conversation.count == 2 && model.conversation[1].text == "Waiting" }
        let chat = try #require(model.chat)
        var settled: [MessageState] = []
        model.observe { change in
            if case .messageChanged(let index) = change, settled.isEmpty, model.conversation.count == 2, index == 1 {
                settled = model.conversation.messages.map(\.state)
            }
        }
        model.startNewChat()
        #expect(settled == [.done, .stopped], "settled before the chat went: \(settled)")
        #expect(!model.isSending && model.conversation.count == 0)
        model.finishSaving()
        let saved = try store.messages(in: chat.id).map(\.message)
        #expect(saved.map(\.state) == [.done, .stopped] && saved[1].text == "Waiting")
    }

    @Test("A chat deleted since it was found, opened while a reply streams: nothing opens, and the reply goes on")
    func deletedChatLeavesTheReplyAlone() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let deleted = try store.storeChat(ChatSummary(title: "gone"), messages: [ChatMessage(role: .user, text: "old", state: .done)])
        try store.deleteChat(deleted.id)
        let scenario = server.gate()
        let model = viewModel(scenario, store: store)
        model.draft = "wait for it"
        model.send()
        try await waitFor { model.conversation.count == 2 && !model.conversation[1].text.isEmpty }
        let chat = try #require(model.chat)
        try model.open(deleted.id)
        #expect(model.isSending && model.chat?.id == chat.id)
        try await server.release(scenario)
        await model.waitUntilIdle()
        #expect(model.conversation.messages.map(\.state) == [.done, .done])
    }

    @Test("A connection chosen while a reply streams takes over once the reply has ended; the reply is never cut")
    func connectionChangeWaitsForTheReply() async throws {
        let scenario = server.gate()
        let model = viewModel(scenario, store: try ChatStore(file: temporaryDatabase()))
        model.draft = "take your time"
        model.send()
        try await waitFor { model.conversation.count == 2 && !model.conversation[1].text.isEmpty }
        let next = ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("echo"), model: "next-model"))
        model.use(next)
        #expect(model.isSending && model.connection !== next)
        try await server.release(scenario)
        await model.waitUntilIdle()
        #expect(model.conversation[1].state == .done && model.conversation[1].text.hasSuffix("as a model writes."))
        #expect(model.connection === next)
        await send("and now?", in: model)
        #expect(model.conversation.messages.last?.text == "Echo: and now? (3 messages)")
    }

    @Test("Deleting the chat whose reply streams: the reply settles, and the chat stays deleted")
    func deletingTheStreamingChat() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("stall", store: store)
        let library = ChatLibrary(store: store, viewModel: model)
        model.draft = "wait for it"
        model.send()
        try await waitFor { model.conversation.count == 2 && model.conversation[1].text == "Waiting" }
        let chat = try #require(model.chat)
        library.delete(chat.id)
        #expect(!model.isSending && model.chat == nil)
        #expect(!library.chats.contains { $0.id == chat.id }, "the reply's settling did not bring the chat back")
        library.undoDelete()
        #expect(library.chats.map(\.id) == [chat.id])
    }

    @Test("A reply cut off before a word is removed, and no later save brings it back; the question is given back, to send again")
    func emptyReplyStaysRemoved() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("silentcut", store: store)
        await send("say nothing", in: model)
        let chat = try #require(model.chat)
        #expect(model.conversation.messages.map(\.role) == [.user])
        #expect(model.status.showError && model.status.errorMessage.contains("cut off"), "\(model.status.errorMessage)")
        #expect(model.conversation[0].state == .failed, "marked: nothing came of it")
        #expect(model.draft == "say nothing", "the text back in the entry")
        // Past the recorder's one-second throttle, when a save waiting then would have landed.
        try await Task.sleep(for: .milliseconds(1500))
        model.finishSaving()
        #expect(try store.messages(in: chat.id).map { [$0.message.role.rawValue, $0.message.state.rawValue] } == [["user", "failed"]])
    }

    @Test("A tool's question answered otherwise (Stop) is settled for the window too")
    func consentWithdrawnOnStop() async throws {
        let consent = ConsentBroker()
        let settings = try TestTools.settings()
        let toolbox = Toolbox.standard(settings: settings, locationSource: nil, askConsent: { await consent.ask() })
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("tools-single/\(uniqueMarker())"),
                                                                                    model: "m"), toolbox: toolbox), consent: consent)
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        model.draft = "Where am I?"
        model.send()
        try await waitFor { changes.contains(.consentRequested) }
        model.stop()
        await model.waitUntilIdle()
        #expect(changes.contains(.consentSettled))
        #expect(!consent.isAsking)
    }

    func waitFor(_ condition: () -> Bool) async throws {
        try #require(try await TestTiming.eventually(condition))
    }
}
