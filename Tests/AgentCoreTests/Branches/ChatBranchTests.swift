@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// Versions of messages in the view model with a real store and the test server: what a
/// request carries, what the store keeps, what a chat reopens on.
@MainActor
@Suite("A chat is a tree: versions of messages")
struct ChatBranchTests: ViewModelTesting {
    /// The texts of the messages request `index` (among those whose path holds `marker`) carried.
    func requestTexts(_ marker: String, _ index: Int) async throws -> [String] {
        let requests = try await server.requests(containing: marker)
        let body = try #require(requests.indices.contains(index) ? requests[index]["body"] as? [String: Any] : nil)
        return ((body["messages"] as? [[String: Any]]) ?? []).compactMap { $0["content"] as? String }
    }

    /// Sends `text` and asks for its reply again: two versions of the reply, the second shown.
    func askTwice(_ text: String, in model: ChatViewModel) async {
        await send(text, in: model)
        model.regenerate()
        await model.waitUntilIdle()
    }

    @Test("The request after a switch to an older version carries only that branch")
    func requestCarriesTheBranch() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo/\(marker)", store: store)
        await send("one", in: model)
        await send("two", in: model)
        await send("three", in: model)
        model.beginEdit(model.conversation[2].id)
        await send("TWO", in: model)
        let edited = model.conversation[2].id
        #expect(model.versions(of: edited).map { [$0.position, $0.count] } == [2, 2])
        #expect(model.canShowVersion(of: edited, offset: -1) && !model.canShowVersion(of: edited, offset: 1))

        model.showVersion(of: edited, offset: -1)
        #expect(model.conversation.messages.map(\.text) == [
            "one", "Echo: one (1 messages)", "two", "Echo: two (3 messages)", "three", "Echo: three (5 messages)",
        ], "the old version and what followed it")
        #expect(model.versions(of: model.conversation[2].id).map { [$0.position, $0.count] } == [1, 2])
        await send("four", in: model)
        #expect(model.conversation.messages.last?.text == "Echo: four (7 messages)")
        #expect(try await requestTexts(marker, 4) == [
            "one", "Echo: one (1 messages)", "two", "Echo: two (3 messages)", "three", "Echo: three (5 messages)", "four",
        ], "nothing of the other branch")

        model.showVersion(of: model.conversation[2].id, offset: 1)
        await send("five", in: model)
        #expect(try await requestTexts(marker, 5) == ["one", "Echo: one (1 messages)", "TWO", "Echo: TWO (3 messages)", "five"])
        #expect(try store.messageCount(in: #require(model.chat).id) == 12, "every version kept")
    }

    @Test("Regenerating any reply keeps the old one as a version; the chat reopens on the branch last shown")
    func regenerateAndReopen() async throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let model = viewModel("echo", store: store)
        await send("alpha", in: model)
        await send("beta", in: model)
        let firstReply = model.conversation[1].id
        #expect(model.canRegenerate(firstReply))
        model.regenerate(firstReply)
        await model.waitUntilIdle()
        #expect(model.conversation.count == 2, "what followed the old reply is off screen")
        #expect(model.versions(of: model.conversation[1].id).map { [$0.position, $0.count] } == [2, 2])
        model.showVersion(of: model.conversation[1].id, offset: -1)
        #expect(model.conversation.messages.map(\.text) == ["alpha", "Echo: alpha (1 messages)", "beta", "Echo: beta (3 messages)"])
        #expect(model.conversation[1].id == firstReply)

        let chat = try #require(model.chat)
        let reopened = viewModel("echo", store: try ChatStore(file: file))
        try reopened.open(chat.id)
        #expect(reopened.conversation.messages.map(\.id) == model.conversation.messages.map(\.id))
        #expect(reopened.versions(of: firstReply).map { [$0.position, $0.count] } == [1, 2])
    }

    @Test("A regeneration that fails shows the reply it was to replace again; the question stays answered")
    func failedRegeneration() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await send("still there?", in: model)
        let shown = model.conversation.messages
        model.use(ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("http500"), model: "m")))
        model.regenerate()
        await model.waitUntilIdle()
        #expect(model.status.showError)
        #expect(model.conversation.messages.map(\.id) == shown.map(\.id), "the old reply back")
        #expect(model.conversation.messages.map(\.state) == [.done, .done], "the question not marked failed")
        #expect(model.draft.isEmpty, "nothing to type again")
        #expect(model.versions(of: shown[1].id) == nil, "the empty attempt left no version")
        let chat = try #require(model.chat)
        #expect(try store.messages(in: chat.id).map(\.message.state) == [.done, .done])
        #expect(try store.currentLeaf(of: chat.id) == shown[1].id)
    }

    @Test("A message sent after an undelivered one takes its place: the same text again replaces it, a changed one is a new version of it")
    func retryReplacesTheUndelivered() async throws {
        let marker = uniqueMarker()
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let model = viewModel("echo/\(marker)", store: store)
        await send("one", in: model)
        model.use(ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("http500"), model: "m")))
        await send("two?", in: model)
        #expect(model.draft == "two?", "the text given back")
        let first = model.conversation[2].id
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.map(\.text) == ["one", "Echo: one (1 messages)", "two?"], "one copy shown, not two")
        #expect(model.conversation[2].state == .failed && model.conversation[2].id != first)
        #expect(model.versions(of: model.conversation[2].id) == nil, "the same message sent again replaced the failed attempt")
        let chat = try #require(model.chat)
        #expect(try store.messageCount(in: chat.id) == 3)

        model.use(ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("echo/\(marker)"), model: "m")))
        let undelivered = model.conversation[2].id
        await send("two, again?", in: model)
        #expect(model.conversation.messages.map(\.text) == ["one", "Echo: one (1 messages)", "two, again?", "Echo: two, again? (3 messages)"])
        #expect(model.conversation.messages.map(\.state) == [.done, .done, .done, .done])
        #expect(model.versions(of: model.conversation[2].id).map { [$0.position, $0.count] } == [2, 2], "a changed message: a version")
        #expect(try await requestTexts(marker, 1) == ["one", "Echo: one (1 messages)", "two, again?"], "no undelivered copy carried")
        let shown = model.conversation.messages.prefix(2).map(\.id)
        model.showVersion(of: model.conversation[2].id, offset: -1)
        #expect(model.conversation.messages.map(\.id) == shown + [undelivered], "the undelivered attempt a click away")
        model.showVersion(of: undelivered, offset: 1)

        await send("three", in: model)
        #expect(model.conversation.messages.map(\.text).suffix(3) == ["Echo: two, again? (3 messages)", "three", "Echo: three (5 messages)"],
                "a delivered message is not replaced: the new one follows its reply")
        #expect(try store.messageCount(in: chat.id) == 7, "the changed attempt's failed version kept")
        let reopened = viewModel("echo", store: try ChatStore(file: file))
        try reopened.open(chat.id)
        #expect(reopened.conversation.messages.map(\.id) == model.conversation.messages.map(\.id))
        #expect(reopened.versions(of: reopened.conversation[2].id).map { [$0.position, $0.count] } == [2, 2])
    }

    @Test("Deleting a version asks nothing of the store it cannot undo: it comes back, and goes at the next start")
    func deleteAndUndo() async throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let model = viewModel("echo", store: store)
        await askTwice("question", in: model)
        await send("follow-up", in: model)
        let second = model.conversation[1].id
        let chat = try #require(model.chat)
        #expect(model.canDeleteVersion(second))
        #expect(!model.canDeleteVersion(model.conversation[0].id), "a message with no other version")
        model.deleteVersion(second)
        #expect(model.conversation.count == 2 && model.conversation[1].id != second, "the other version shown")
        #expect(model.versions(of: model.conversation[1].id) == nil)
        #expect(try store.messageCount(in: chat.id) == 2, "the version and its follow-up are gone from view and search")
        #expect(try store.search("follow").isEmpty)

        model.undoDeleteVersion()
        #expect(model.conversation.messages.map(\.text) == ["question", "Echo: question (1 messages)", "follow-up",
                                                            "Echo: follow-up (3 messages)"])
        #expect(model.versions(of: second).map { [$0.position, $0.count] } == [2, 2])
        model.deleteVersion(second)
        await model.waitUntilIdle()
        let restarted = try ChatStore(file: file)
        #expect(try restarted.messageCount(in: chat.id) == 2, "purged when the store next opens")
        #expect(try restarted.messages(in: chat.id).map(\.message.parentID) == [nil, model.conversation[0].id])
    }

    @Test("Undo brings back only what its delete took: not a version below it deleted before")
    func undoRestoresOnlyItsDelete() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await askTwice("question", in: model)
        let (firstQuestion, secondReply) = (model.conversation[0].id, model.conversation[1].id)
        model.beginEdit(firstQuestion)
        await send("QUESTION", in: model)
        model.showVersion(of: model.conversation[0].id, offset: -1)
        #expect(model.conversation.messages.map(\.id) == [firstQuestion, secondReply])

        model.deleteVersion(secondReply)
        model.deleteVersion(firstQuestion)
        #expect(model.conversation.messages.map(\.text) == ["QUESTION", "Echo: QUESTION (1 messages)"])
        model.undoDeleteVersion()
        #expect(model.conversation[0].id == firstQuestion)
        #expect(model.conversation[1].id != secondReply, "the reply deleted before stays deleted")
        #expect(model.versions(of: model.conversation[1].id) == nil)
        #expect(try store.message(secondReply) == nil)
    }

    @Test("Two deletes in the same instant are told apart: Undo brings back only what its own took")
    func undoTellsApartDeletesInOneInstant() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await askTwice("question", in: model)
        let (firstQuestion, secondReply) = (model.conversation[0].id, model.conversation[1].id)
        model.showVersion(of: secondReply, offset: -1)
        let firstReply = model.conversation[1].id
        model.beginEdit(firstQuestion)
        await send("QUESTION", in: model)
        let chat = try #require(model.chat).id

        let instant = Date()
        try store.deleteBranch(secondReply, in: chat, at: instant)
        try store.deleteBranch(firstQuestion, in: chat, at: instant)
        #expect(try store.message(firstQuestion) == nil && store.message(firstReply) == nil)
        try store.restoreBranch(firstQuestion, in: chat)
        #expect(try store.message(firstQuestion) != nil && store.message(firstReply) != nil)
        #expect(try store.message(secondReply) == nil, "the reply deleted before stays deleted")
    }

    @Test("A reply asked for after a delete ends its Undo: it stays unanswered by Undo, and the reply is not stopped")
    func askingEndsTheUndo() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await askTwice("question", in: model)
        model.deleteVersion(model.conversation[1].id)
        #expect(model.canUndoDeleteVersion)
        model.draft = "next"
        model.send()
        #expect(!model.canUndoDeleteVersion)
        model.undoDeleteVersion()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.map(\.text) == ["question", "Echo: question (1 messages)", "next", "Echo: next (3 messages)"])
        #expect(model.conversation.messages.last?.state == .done)
    }

    @Test("A search hit in a version deleted since the search opens the chat on its branch, and what is sent after stays whole")
    func hitInADeletedVersion() async throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let model = viewModel("echo", store: store)
        await askTwice("question", in: model)
        await send("follow-up", in: model)
        let chat = try #require(model.chat)
        let hit = try #require(try store.search("follow").first { $0.messageID != nil }?.messageID)
        model.deleteVersion(model.conversation[1].id)
        try model.open(chat.id, focusing: hit)
        #expect(model.conversation.messages.map(\.text) == ["question", "Echo: question (1 messages)"], "the version left")
        #expect(model.focusedMessageID == nil)
        await send("again", in: model)
        let restarted = try ChatStore(file: file)
        #expect(try restarted.branch(endingAt: try #require(try restarted.currentLeaf(of: chat.id))).map(\.message.text)
            == ["question", "Echo: question (1 messages)", "again", "Echo: again (3 messages)"])
    }

    @Test("A hit opened on another branch becomes the branch shown from above its fork too: a later hit above the fork shows it, and a message sent goes under it")
    func hitAboveTheForkFollowsTheBranchOpened() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await send("melons", in: model)
        await send("apples", in: model)
        model.beginEdit(model.conversation[2].id)
        await send("pears", in: model)
        let chat = try #require(model.chat)
        let apples = try #require(try store.search("apples").first { $0.messageID != nil }?.messageID)
        let melons = try #require(try store.search("melons").first { $0.messageID != nil }?.messageID)
        try model.open(chat.id, focusing: apples)
        try model.open(chat.id, focusing: melons)
        #expect(model.conversation.messages.map(\.text) == ["melons", "Echo: melons (1 messages)", "apples", "Echo: apples (3 messages)"])
        await send("plums", in: model)
        #expect(model.conversation.messages.map(\.text).suffix(4) == ["apples", "Echo: apples (3 messages)", "plums", "Echo: plums (5 messages)"])
    }

    @Test("Search finds text in any branch and opens that branch")
    func searchOpensTheBranch() async throws {
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo", store: store)
        await send("apples", in: model)
        await send("pears", in: model)
        model.beginEdit(model.conversation[2].id)
        await send("plums", in: model)
        let hit = try #require(try store.search("pears").first { $0.messageID != nil })
        try model.open(hit.chatID, focusing: hit.messageID)
        #expect(model.conversation.messages.map(\.text).contains("pears"))
        #expect(!model.conversation.messages.map(\.text).contains("plums"))
        #expect(model.focusedMessageID == hit.messageID)
        let again = viewModel("echo", store: store)
        try again.open(hit.chatID)
        #expect(again.conversation.messages.last?.text == "Echo: pears (3 messages)", "the branch opened is the one shown from then on")
    }

    @Test("A chat's settings are what its requests carry")
    func settingsInTheRequest() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let connection = ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("echo/\(marker)"), model: "m"),
                                        options: GenerationOptions(temperature: 0.9, maxTokens: 500),
                                        toolbox: Toolbox([DateTimeTool()]))
        let model = ChatViewModel(connection: connection, store: store)
        model.defaultSystemPrompt = "Be kind."
        await send("first", in: model)
        var body = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
        #expect(body["temperature"] as? Double == 0.9 && body["max_tokens"] as? Int == 500 && body["tools"] != nil)
        #expect(try await requestTexts(marker, 0).first == "Be kind.")

        model.apply(ChatSettings(systemPrompt: "Be a pirate.", temperature: 0.3, maxTokens: 77, toolsEnabled: false))
        await send("second", in: model)
        body = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
        #expect(body["temperature"] as? Double == 0.3)
        #expect(body["max_tokens"] as? Int == 77)
        #expect(body["tools"] == nil, "tools off for this chat")
        #expect(try await requestTexts(marker, 1).first == "Be a pirate.")
        let saved = try #require(model.chat)
        let kept = try #require(try store.chat(saved.id))
        #expect(kept.settings == ChatSettings(systemPrompt: "Be a pirate.", temperature: 0.3, maxTokens: 77, toolsEnabled: false))
        #expect(model.settingsDifferences == ["own system prompt", "temperature 0.3", "at most 77 tokens", "no tools"])
    }

    @Test("A chat started from a preset has its settings; the preset becomes the last used")
    func startedFromAPreset() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo/\(marker)", store: store)
        let library = ChatLibrary(store: store, viewModel: model)
        var changes: [ChatLibrary.Change] = []
        library.observe { changes.append($0) }
        #expect(library.presets.map(\.name) == ["Plain Assistant", "Terse Code Reviewer", "Translator"])
        #expect(library.lastUsedPreset == nil)
        let translator = try #require(library.presets.last)
        library.newChat(from: translator)
        #expect(changes == [.selection, .presetUsed], "the new-chat button learns the last used")
        #expect(model.presetName == "Translator")
        await send("Bonjour", in: model)
        let saved = try #require(model.chat)
        let chat = try #require(try store.chat(saved.id))
        #expect(chat.preset == "Translator")
        #expect(chat.temperature == 0.3 && !chat.toolsEnabled && chat.systemPrompt.hasPrefix("You translate."))
        #expect(try await requestTexts(marker, 0).first?.hasPrefix("You translate.") == true)
        #expect(library.lastUsedPreset?.id == translator.id)
    }

    @Test("Presets added, changed and deleted through the library are what the store keeps, in order")
    func presetsEdited() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let library = ChatLibrary(store: store, viewModel: viewModel("echo", store: store))
        var changes = 0
        library.observe { if $0 == .presets { changes += 1 } }
        var poet = ChatPreset(name: "Poet", systemPrompt: "Answer in verse.", model: .server("m2"), temperature: 1.2, maxTokens: 300)
        #expect(library.savePreset(poet))
        poet.name = "Haiku Poet"
        poet.toolsEnabled = false
        #expect(library.savePreset(poet))
        #expect(library.presets.map(\.name) == ["Plain Assistant", "Terse Code Reviewer", "Translator", "Haiku Poet"])
        #expect(try store.preset(named: "haiku poet") == poet)
        #expect(poet.summary == "model m2, temperature 1.2, at most 300 tokens, no tools, “Answer in verse.”")
        #expect(library.deletePreset(poet.id))
        #expect(library.presets.count == 3)
        #expect(changes == 3)
    }
}
