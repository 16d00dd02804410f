@testable import AgentCore
import Foundation
import TestSupport
import Testing

@MainActor
@Suite("Chats that last: the view model with a store")
struct ChatPersistenceTests: ViewModelTesting {
    @Test("A new chat is saved with its first message, titled from it, and reopens as it was")
    func savedAndReopened() async throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let model = viewModel("echo", store: store)
        #expect(model.chat == nil)
        await send("Plan a picnic for Saturday", in: model)
        await send("Add lemonade", in: model)
        let chat = try #require(model.chat)
        #expect(chat.title == "Plan a picnic for Saturday")

        let reopened = viewModel("echo", store: try ChatStore(file: file))
        try reopened.open(chat.id)
        #expect(reopened.conversation.messages.map(\.text) == model.conversation.messages.map(\.text))
        #expect(reopened.conversation.messages.map(\.state) == [.done, .done, .done, .done])
        await send("And cake", in: reopened)
        #expect(reopened.conversation.messages.last?.text == "Echo: And cake (5 messages)", "the context came from the store")
    }

    @Test("Editing a message adds a version of it, answered anew; the old one and its turns stay")
    func edit() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await send("one", in: model)
        await send("two", in: model)
        await send("three", in: model)
        let second = model.conversation[2]
        model.beginEdit(second.id)
        #expect(model.draft == "two")
        #expect(model.editingMessageID == second.id)
        await send("TWO", in: model)
        #expect(model.conversation.messages.map(\.text) == ["one", "Echo: one (1 messages)", "TWO", "Echo: TWO (3 messages)"])
        let chat = try #require(model.chat)
        #expect(try store.messageCount(in: chat.id) == 8)
        let leaf = try #require(try store.currentLeaf(of: chat.id))
        #expect(try store.branch(endingAt: leaf).map(\.message.text) == model.conversation.messages.map(\.text))
        #expect(model.versions(of: model.conversation[2].id).map { [$0.position, $0.count] } == [2, 2])
        #expect(model.editingMessageID == nil)
    }

    @Test("Another chat opened, or a new one, while a message is edited: the edit ends and the draft from before it comes back")
    func editEndsWithItsChat() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await send("in the first chat", in: model)
        let first = try #require(model.chat)
        model.startNewChat()
        await send("in the second chat", in: model)
        for leave in [{ try model.open(first.id) }, { model.startNewChat() }] as [() throws -> Void] {
            model.draft = "my draft"
            model.beginEdit(model.conversation[0].id)
            #expect(model.draft == model.conversation[0].text)
            try leave()
            #expect(model.editingMessageID == nil)
            #expect(model.draft == "my draft", "the draft from before the edit, not the edited message")
            try model.open(try #require(try store.chats().first { $0.id != first.id }).id)
        }
    }

    @Test("An earlier reply asked again, or another version shown, while a later message is edited: the edit ends, the draft from before it comes back; another version below it leaves the edit on")
    func editEndsWhenItsMessageGoes() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await send("one", in: model)
        await send("two", in: model)
        model.draft = "my draft"
        model.beginEdit(model.conversation[2].id)
        model.regenerate(model.conversation[1].id)
        await model.waitUntilIdle()
        #expect(model.editingMessageID == nil)
        #expect(model.draft == "my draft")

        model.showVersion(of: model.conversation[1].id, offset: -1)
        #expect(model.conversation.messages.map(\.text).last == "Echo: two (3 messages)")
        model.beginEdit(model.conversation[2].id)
        model.showVersion(of: model.conversation[1].id, offset: 1)
        #expect(model.editingMessageID == nil)
        #expect(model.draft == "my draft")
        // Another version below the message edited leaves it on screen, and the edit on.
        model.beginEdit(model.conversation[0].id)
        model.showVersion(of: model.conversation[1].id, offset: -1)
        #expect(model.editingMessageID == model.conversation[0].id)
        model.cancelEdit()
        model.showVersion(of: model.conversation[1].id, offset: 1)
        model.draft = "three"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.map(\.text) == ["one", "Echo: one (1 messages)", "three", "Echo: three (3 messages)"])
    }

    @Test("Regenerate adds a new version of the last reply to the same message")
    func regenerate() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo/\(marker)", store: store)
        await send("hello", in: model)
        let firstReply = model.conversation[1].id
        #expect(model.canRegenerate)
        model.regenerate()
        await model.waitUntilIdle()
        #expect(model.conversation.count == 2)
        #expect(model.conversation[1].id != firstReply)
        #expect(model.conversation[1].text == "Echo: hello (1 messages)")
        let requests = try await server.requests(containing: marker)
        #expect(requests.count == 2, "the same message went again")
        #expect(try store.messages(in: #require(model.chat).id).count == 3)
        #expect(model.versions(of: model.conversation[1].id).map { [$0.position, $0.count] } == [2, 2])
    }

    @Test("Stop keeps what arrived, saved and marked stopped")
    func stopIsSaved() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("stall", store: store)
        model.draft = "wait"
        model.send()
        // The shared test server may be busy with another suite's 10 MB reply: eventually waits long.
        try #require(try await TestTiming.eventually { model.conversation.count == 2 && !model.conversation[1].text.isEmpty },
                     "the first token arrived")
        model.stop()
        await model.waitUntilIdle()
        let saved = try store.messages(in: #require(model.chat).id).map(\.message)
        #expect(saved.map(\.state) == [.done, .stopped])
        #expect(saved.last?.text == "Waiting")
    }

    @Test("A damaged chat whose messages link in a loop opens with each message once, and nothing earlier to load")
    func loopInADamagedChat() throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let chat = try store.storeChat(ChatSummary(title: "damaged"), messages: ["one", "two", "three", "four"].enumerated().map {
            ChatMessage(role: $0.offset % 2 == 0 ? .user : .assistant, text: $0.element, state: .done)
        })
        let ids = try store.messages(in: chat.id).map(\.message.id.uuidString)
        // The first question now hangs below its own reply: a loop above the branch.
        try SQLiteDatabase(path: file.path).query("UPDATE messages SET parent_id = ? WHERE id = ?", [.text(ids[1]), .text(ids[0])])
        let model = viewModel("echo/\(uniqueMarker())", store: store)
        try model.open(chat.id)
        #expect(model.conversation.messages.map(\.text) == ["one", "two", "three", "four"])
        #expect(model.pager?.hasEarlier == false)
        #expect(model.loadEarlier() == 0)
    }

    @Test("A long chat opens on its newest page; earlier pages load on demand; context reaches back")
    func paging() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.storeChat(ChatSummary(title: "long"),
                                       messages: (0..<150).map { ChatMessage(role: $0 % 2 == 0 ? .user : .assistant, text: "message \($0)", state: .done) })
        let model = viewModel("echo/\(marker)", store: store)
        try model.open(chat.id)
        #expect(model.conversation.count == ChatPager.pageSize)
        #expect(model.conversation[0].text == "message 120")
        #expect(model.pager?.hasEarlier == true)
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        #expect(model.loadEarlier() == 30)
        #expect(model.conversation[0].text == "message 90")
        #expect(model.loadEarlier(limit: 4) == 4, "a few at a time, as the window asks while scrolling")
        #expect(model.conversation[0].text == "message 86")
        #expect(changes == [.messagesInserted(0..<30), .messagesInserted(0..<4)], "one change a page")
        #expect(model.conversation.index(of: model.conversation[5].id) == 5)
        for _ in 0..<3 { model.loadEarlier() }
        #expect(model.conversation[0].text == "message 0")
        #expect(model.pager?.hasEarlier == false)
        #expect(model.loadEarlier() == 0)

        let fresh = viewModel("echo/\(marker)", store: store)
        try fresh.open(chat.id)
        fresh.contextBudget = 100_000
        await send("the newest", in: fresh)
        let request = try #require(try await server.requests(containing: marker).last)
        let messages = (request["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
        #expect(messages.count == 151, "everything fits the budget, so earlier pages were read from the store")
        #expect(messages.first?["content"] as? String == "message 0")
    }

    @Test("Paging through a long chat keeps a bounded window loaded: earlier pages let go of the newest, later ones bring them back; sending goes after the newest")
    func loadedWindowSlides() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let texts = (0..<400).map { "message \($0)" }
        let chat = try store.storeChat(ChatSummary(title: "long"),
                                       messages: texts.enumerated().map { ChatMessage(role: $0.offset % 2 == 0 ? .user : .assistant, text: $0.element, state: .done) })
        let model = viewModel("echo", store: store)
        try model.open(chat.id)
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        let limit = model.loadedLimit
        while model.loadEarlier(limit: 2) > 0 {
            #expect(model.conversation.count <= limit)
        }
        #expect(model.conversation.messages.map(\.text) == Array(texts.prefix(limit)), "the oldest messages, in order")
        #expect(model.pager?.hasEarlier == false && model.pager?.hasLater == true)
        #expect(!model.canRegenerate, "the last reply is not loaded")
        model.regenerate()
        #expect(!model.isSending && model.conversation.count == limit, "no reply in the middle of the chat asked for again")
        let unloaded = changes.filter { if case .messagesUnloaded = $0 { true } else { false } }
        #expect(unloaded.first == .messagesUnloaded(limit..<(limit + 2)), "the newest two went as two came")
        #expect(model.conversation.messages.allSatisfy { model.conversation.index(of: $0.id) == model.conversation.messages.firstIndex(of: $0) })

        changes = []
        while model.loadLater(limit: 2) > 0 {
            #expect(model.conversation.count <= limit)
        }
        #expect(model.conversation.messages.map(\.text) == Array(texts.suffix(limit)), "back to the newest")
        #expect(model.pager?.hasEarlier == true && model.pager?.hasLater == false)
        #expect(changes.contains(.messagesUnloaded(0..<2)), "the oldest loaded went as later ones came")
        #expect(model.conversation.messages.allSatisfy { model.conversation.index(of: $0.id) == model.conversation.messages.firstIndex(of: $0) })

        while model.loadEarlier(limit: 30) > 0 {}
        #expect(model.conversation.count == limit)
        await send("and now?", in: model)
        #expect(model.conversation.messages.suffix(3).map(\.text) == ["message 399", "and now?", "Echo: and now? (401 messages)"],
                "the message went after the chat's newest, with all of it in the context")
    }

    @Test("How many messages stay loaded is what the view asks for, never fewer than a page nor more than the most")
    func loadedLimitBounds() throws {
        let model = try openLongChat(300, scenario: "echo")
        #expect(model.loadedLimit == ChatViewModel.maximumLoaded, "the most until a view asks")
        model.loadedLimit = 45
        while model.loadEarlier(limit: 2) > 0 {
            #expect(model.conversation.count <= 45)
        }
        #expect(model.conversation.messages.first?.text == "message 0" && model.conversation.count == 45)
        model.loadedLimit = 3
        #expect(model.loadedLimit == ChatPager.pageSize)
        model.loadedLimit = 1000
        #expect(model.loadedLimit == ChatViewModel.maximumLoaded)
    }

    /// A view model on `scenario`'s server with a stored chat of `count` messages ("message 0",
    /// a question, then its answer, and so on) open on its newest page.
    func openLongChat(_ count: Int, scenario: String) throws -> ChatViewModel {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.storeChat(ChatSummary(title: "long"),
                                       messages: (0..<count).map { ChatMessage(role: $0 % 2 == 0 ? .user : .assistant, text: "message \($0)", state: .done) })
        let model = viewModel(scenario, store: store)
        try model.open(chat.id)
        return model
    }

    @Test("A chat paged far up shows its newest messages again when asked; not while a message is edited")
    func showNewestLoadsTheNewestPage() throws {
        let model = try openLongChat(300, scenario: "echo")
        #expect(!model.showNewest(), "the newest are loaded already")
        while model.loadEarlier(limit: 30) > 0 {}
        #expect(model.pager?.hasLater == true)
        model.beginEdit(model.conversation.messages[0].id)
        #expect(!model.showNewest(), "not while a message is edited")
        model.cancelEdit()
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        #expect(model.showNewest())
        #expect(changes == [.reloaded])
        #expect(model.conversation.messages.last?.text == "message 299" && model.pager?.hasLater == false && model.canRegenerate)
    }

    @Test("While a message is edited, paging back does not let go of it; the edit is a version of it")
    func editedMessageStaysLoaded() async throws {
        let model = try openLongChat(300, scenario: "echo")
        let edited = try #require(model.conversation.messages.last { $0.role == .user })
        model.beginEdit(edited.id)
        while model.loadEarlier(limit: 30) > 0 {}
        #expect(model.conversation.count == 300, "everything paged in stays while the message is edited")
        await send("message 298, edited", in: model)
        #expect(model.versions(of: model.conversation.messages[298].id)?.count == 2, "a new version of the edited message")
        #expect(model.conversation.messages.suffix(2).map(\.text) == ["message 298, edited", "Echo: message 298, edited (299 messages)"])
    }

    @Test("While a reply is written, paging back does not let go of it")
    func writingReplyStaysLoaded() async throws {
        let model = try openLongChat(300, scenario: "stall")
        model.draft = "wait"
        model.send()
        #expect(model.isSending)
        while model.loadEarlier(limit: 30) > 0 {}
        #expect(model.conversation.count == 302, "everything paged in stays while the reply is written")
        #expect(model.conversation.messages.last?.role == .assistant && model.pager?.hasLater == false)
        model.stop()
        await model.waitUntilIdle()
    }

    @Test("A search hit in an old part of a long chat opens a page around the hit, not the tail; later pages and sending still work")
    func searchHitOpensAPageAroundIt() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let messages = (0..<300).map { ChatMessage(role: $0 % 2 == 0 ? .user : .assistant, text: "message \($0)", state: .done) }
        let chat = try store.storeChat(ChatSummary(title: "long"), messages: messages)
        let model = viewModel("echo", store: store)
        try model.open(chat.id, focusing: messages[40].id)
        #expect(model.conversation.messages.map(\.text) == (30..<60).map { "message \($0)" }, "a page around the hit")
        #expect(model.focusedMessageID == messages[40].id)
        #expect(model.pager?.hasEarlier == true && model.pager?.hasLater == true)
        #expect(!model.canRegenerate, "the last reply is not on screen")

        #expect(model.loadLater() == 30)
        #expect(model.conversation.messages.last?.text == "message 89")
        #expect(model.loadEarlier() == 30)
        #expect(model.conversation.messages.first?.text == "message 0")

        await send("and now?", in: model)
        #expect(model.pager?.hasLater == false)
        #expect(model.conversation.messages.suffix(3).map(\.text) == ["message 299", "and now?", "Echo: and now? (301 messages)"],
                "the message went after the chat's newest, with all of it in the context")
        #expect(model.focusedMessageID == nil)
    }

    @Test("The chat list follows: new chats on top, rename, delete with undo, search")
    func library() async throws {
        let file = temporaryDatabase()
        let settings = try TestTools.settings()
        let store = try ChatStore(file: file)
        let model = viewModel("echo", store: store)
        let library = ChatLibrary(store: store, viewModel: model, settings: settings)
        var changes: [ChatLibrary.Change] = []
        library.observe { changes.append($0) }
        await send("First chat about gardening", in: model)
        library.newChat()
        await send("Second chat about trains", in: model)
        #expect(library.chats.map(\.title) == ["Second chat about trains", "First chat about gardening"])
        #expect(library.selectedIndex == 0)
        #expect(changes.contains(.chats))

        library.search("gardening")
        #expect(library.searchResults.first?.chatTitle == "First chat about gardening")
        library.open(library.searchResults[0])
        #expect(model.chat?.title == "First chat about gardening")

        let second = library.chats[0]
        library.rename(second.id, to: "Rail trip")
        #expect(library.chats[0].title == "Rail trip")
        library.delete(second.id)
        #expect(library.chats.map(\.title) == ["First chat about gardening"])
        #expect(library.recentlyDeleted?.id == second.id)
        library.undoDelete()
        #expect(library.chats.map(\.title).contains("Rail trip"))
        #expect(model.chat?.id == second.id, "undo brings the chat back on screen")

        let restarted = ChatLibrary(store: try ChatStore(file: file), viewModel: viewModel("echo", store: try ChatStore(file: file)),
                                    settings: settings)
        restarted.openInitialChat()
        #expect(restarted.viewModel.chat?.id == second.id, "the app reopens on the last chat")
    }
}
