@testable import AgentCore
import Foundation
import Glibc
import TestSupport
import Testing

func temporaryDatabase() -> URL {
    FileManager.default.temporaryDirectory.appending(path: "agent-store-\(UUID().uuidString)/chats.sqlite")
}

@Suite("Chat store (SQLite)")
struct ChatStoreTests {
    @Test func chatsAreListedNewestFirstAndRenamedDeletedRestored() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let older = try store.createChat(ChatSummary(title: "older", updated: Date(timeIntervalSince1970: 100)))
        let newer = try store.createChat(ChatSummary(title: "newer", updated: Date(timeIntervalSince1970: 200)))
        #expect(try store.chats().map(\.id) == [newer.id, older.id])
        try store.touchChat(older.id, at: Date(timeIntervalSince1970: 300))
        #expect(try store.chats().map(\.id) == [older.id, newer.id])
        try store.renameChat(newer.id, to: "renamed")
        #expect(try store.chat(newer.id)?.title == "renamed")
        try store.deleteChat(newer.id)
        #expect(try store.chats().map(\.id) == [older.id])
        #expect(try store.search("renamed").isEmpty, "deleted chats are not found")
        try store.restoreChat(newer.id)
        #expect(try store.chats().count == 2)
    }

    @Test("A deleted chat is gone for good once the store is opened again")
    func deletionIsFinalAfterRestart() throws {
        let file = temporaryDatabase()
        var store: ChatStore? = try ChatStore(file: file)
        let chat = try #require(try store?.createChat(ChatSummary(title: "to delete")))
        try store?.save(ChatMessage(role: .user, text: "bye", state: .done), in: chat.id, seq: 0)
        try store?.deleteChat(chat.id)
        // Closed, as when the app quits: a store opened while another is open keeps its undo.
        store = nil
        let reopened = try ChatStore(file: file)
        #expect(try reopened.chats().isEmpty)
        #expect(try reopened.messageCount(in: chat.id) == 0, "its messages went with it")
    }

    @Test("Text is always a bound parameter, never SQL")
    func hostileText() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let nasty = "x'); DROP TABLE chats; -- \" \\ 👋 \u{0}end"
        let chat = try store.createChat(ChatSummary(title: nasty))
        try store.save(ChatMessage(role: .user, text: nasty, state: .done), in: chat.id, seq: 0)
        #expect(try store.chat(chat.id)?.title == nasty, "every character kept, NUL included")
        #expect(try store.messages(in: chat.id).first?.message.text == nasty)
        #expect(try store.search("DROP TABLE").count == 2)
        #expect(try store.search("\" OR 1=1 -- NEAR(").isEmpty, "query syntax in the search box is just text")
    }

    @Test("After a crash: a streaming reply is kept and marked cut off; unanswered messages failed")
    func recovery() throws {
        let file = temporaryDatabase()
        let (chat, other) = try Self.interruptedTurns(in: file)
        let reopened = try ChatStore(file: file)
        #expect(try reopened.messages(in: chat.id).map(\.message.state) == [.done, .cutOff])
        #expect(try reopened.messages(in: chat.id).last?.message.text == "partial ans")
        #expect(try reopened.messages(in: other.id).map(\.message.state) == [.failed], "the empty placeholder is gone")
    }

    @Test("After a crash: a question whose reply had begun but brought nothing is failed; one with an earlier reply stays answered")
    func recoveryOfAnEmptyReply() throws {
        let file = temporaryDatabase()
        // The store is closed when the closure returns, as a crash closes it.
        let (begun, again, stopped) = try { () throws -> (ChatSummary, ChatSummary, ChatSummary) in
            let store = try ChatStore(file: file)
            let begun = try store.createChat(ChatSummary(title: "begun, nothing came"))
            let question = ChatMessage(role: .user, text: "q", state: .done)
            try store.save(question, in: begun.id, seq: 0)
            try store.save(ChatMessage(parentID: question.id, role: .assistant, text: "", state: .streaming), in: begun.id, seq: 1)
            let again = try store.createChat(ChatSummary(title: "asked again"))
            let answered = ChatMessage(role: .user, text: "a", state: .done)
            try store.save(answered, in: again.id, seq: 0)
            try store.save(ChatMessage(parentID: answered.id, role: .assistant, text: "the first answer", state: .done), in: again.id, seq: 1)
            try store.save(ChatMessage(parentID: answered.id, role: .assistant, text: "", state: .streaming), in: again.id, seq: 2)
            let stopped = try store.createChat(ChatSummary(title: "stopped before a word"))
            try store.save(ChatMessage(role: .user, text: "s", state: .done), in: stopped.id, seq: 0)
            return (begun, again, stopped)
        }()
        let (onlyAnError, wordsAndAnError) = try { () throws -> (ChatSummary, ChatSummary) in
            let store = try ChatStore(file: file)
            var chats: [ChatSummary] = []
            for words in ["", "Half an answer"] {
                let chat = try store.createChat(ChatSummary(title: "an error event after “\(words)”"))
                let question = ChatMessage(role: .user, text: "e", state: .done)
                try store.save(question, in: chat.id, seq: 0)
                var reply = ChatMessage(parentID: question.id, role: .assistant, text: words, state: .streaming)
                _ = ReplyAssembler.appendText(of: .serverError("overloaded"), to: &reply)
                try store.save(reply, in: chat.id, seq: 1)
                chats.append(chat)
            }
            return (chats[0], chats[1])
        }()

        let reopened = try ChatStore(file: file)
        #expect(try reopened.messages(in: begun.id).map(\.message.state) == [.failed])
        #expect(try reopened.messages(in: again.id).map(\.message.state) == [.done, .done], "the regeneration that came to nothing is gone")
        #expect(try reopened.messages(in: stopped.id).map(\.message.state) == [.done], "a turn settled before the crash is left as it was")
        #expect(try reopened.messages(in: onlyAnError.id).map(\.message.state) == [.failed], "only the server's error came: nothing got through")
        let kept = try reopened.messages(in: wordsAndAnError.id).map(\.message)
        #expect(kept.map(\.state) == [.done, .cutOff])
        #expect(kept.last?.modelText == "Half an answer" && kept.last?.text.hasSuffix("Error: overloaded") == true)
    }

    /// Two chats whose turns were under way when the store's process ended (its store is
    /// closed on return, after `beforeClosing`): one replying, one still waiting for its reply.
    static func interruptedTurns(in file: URL, beforeClosing: () throws -> Void = {}) throws
        -> (replying: ChatSummary, waiting: ChatSummary) {
        let store = try ChatStore(file: file)
        defer { withExtendedLifetime(store) {} }
        let chat = try store.createChat(ChatSummary(title: "crash"))
        let question = ChatMessage(role: .user, text: "q1", state: .sending)
        try store.save(question, in: chat.id, seq: 0)
        try store.save(ChatMessage(parentID: question.id, role: .assistant, text: "partial ans", state: .streaming), in: chat.id, seq: 1)
        let other = try store.createChat(ChatSummary(title: "never answered"))
        try store.save(ChatMessage(role: .user, text: "q2", state: .sending), in: other.id, seq: 0)
        try store.save(ChatMessage(role: .assistant, text: "", state: .sending), in: other.id, seq: 1)
        try beforeClosing()
        return (chat, other)
    }

    @Test("Opened while another process has the store open: its streaming replies and its undo are left alone")
    func anotherProcessIsLeftAlone() throws {
        let file = temporaryDatabase()
        // Each ChatStore takes its own lock on its own descriptor: in one process, two stores
        // stand for two processes.
        let window = try ChatStore(file: file)
        let chat = try window.createChat(ChatSummary(title: "streaming in the window"))
        let question = ChatMessage(role: .user, text: "q", state: .sending)
        try window.save(question, in: chat.id, seq: 0)
        let placeholder = ChatMessage(parentID: question.id, role: .assistant, text: "", state: .sending)
        try window.save(placeholder, in: chat.id, seq: 1)
        let deleted = try window.createChat(ChatSummary(title: "deleted, undo on screen"))
        try window.deleteChat(deleted.id)

        let cli = try ChatStore(file: file)
        #expect(try cli.messages(in: chat.id).map(\.message.state) == [.sending, .sending], "nothing settled under the window")
        try window.restoreChat(deleted.id)
        #expect(try window.chat(deleted.id) != nil, "the undo still works")

        // The other process adds to the chat meanwhile: the window's next message, counted
        // before that, still goes after it.
        let cliQuestion = ChatMessage(parentID: placeholder.id, role: .user, text: "from the terminal", state: .done)
        try cli.save(cliQuestion, in: chat.id, seq: try cli.nextSeq(in: chat.id))
        let reply = ChatMessage(parentID: placeholder.id, role: .assistant, text: "window's", state: .done)
        try window.save(reply, in: chat.id, seq: 2)
        #expect(try window.messages(in: chat.id).map(\.message.text) == ["q", "", "from the terminal", "window's"])
        #expect(try window.messages(in: chat.id).map(\.seq) == [0, 1, 2, 3])
    }

    @Test("Opened alone after the others closed: what a crash left is settled")
    func settledOnceAlone() throws {
        let file = temporaryDatabase()
        let (chat, _) = try Self.interruptedTurns(in: file)
        let other = try ChatStore(file: file)
        #expect(try other.messages(in: chat.id).map(\.message.state) == [.done, .cutOff], "alone: settled")
        try other.save(ChatMessage(role: .user, text: "q3", state: .sending), in: chat.id, seq: 2)
        let second = try ChatStore(file: file)
        #expect(try second.messages(in: chat.id).last?.message.state == .sending, "not alone: left as it is")
    }

    @Test("Pages of a branch, up from its last message and down from any")
    func pagesOfMessages() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "long"))
        let messages = ChatMessage.chained((0..<150).map { ChatMessage(role: $0 % 2 == 0 ? .user : .assistant, text: "m\($0)", state: .done) })
        try store.saveAll(messages, in: chat.id, firstSeq: 0)
        #expect(try store.messageCount(in: chat.id) == 150)
        #expect(try store.currentLeaf(of: chat.id) == messages[149].id, "without a remembered branch, the newest message")
        #expect(try store.branch(endingAt: messages[149].id, limit: 60).map(\.seq) == Array(90..<150))
        #expect(try store.branch(endingAt: messages[90].id, limit: 60, including: false).map(\.seq) == Array(30..<90))
        #expect(try store.branch(endingAt: messages[10].id, including: false).map(\.seq) == Array(0..<10))
        #expect(try store.branch(after: messages[139].id, in: chat.id, limit: 100).map(\.message.text) == (140..<150).map { "m\($0)" })
        #expect(try store.nextSeq(in: chat.id) == 150)
    }
}

@Suite("Export and import")
struct ChatArchiveTests {
    static func sampleStore() throws -> ChatStore {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "Weather “today”", created: Date(timeIntervalSince1970: 1_700_000_000.25),
                                                    updated: Date(timeIntervalSince1970: 1_700_000_100.5), model: "qwen3",
                                                    systemPrompt: "Be terse.", chosenModel: .server("qwen3:4b")))
        let call = ToolCall(id: "call_1", name: "get_location", arguments: .object([("precise", .bool(true)), ("n", .number(2.5))]),
                            result: "latitude: 1.0, longitude: 2.0", textOffset: 6, round: 0)
        var reply = ChatMessage(role: .assistant, text: "Let me see. You are near (1, 2). **Sunny** — 👋", model: "qwen3",
                                time: Date(timeIntervalSince1970: 1_700_000_002.75), state: .cutOff, toolCalls: [call],
                                usage: TokenUsage(promptTokens: 20, completionTokens: 10, generationSeconds: 0.5))
        reply.appendNotice("\n\nError: the server is overloaded")
        try store.saveAll(ChatMessage.chained([
            ChatMessage(role: .user, text: "Where am I?\nAnd the weather?", time: Date(timeIntervalSince1970: 1_700_000_001.125), state: .done),
            reply,
        ]), in: chat.id, firstSeq: 0)
        let second = try store.createChat(ChatSummary(title: "Empty-ish"))
        try store.save(ChatMessage(role: .user, text: "hi", state: .failed), in: second.id, seq: 0)
        return store
    }

    @Test("Export → import → export gives the same JSON, member for member")
    func roundTrip() throws {
        let original = try Self.sampleStore()
        let exported = ChatArchive.json(try original.archiveAll())
        let fresh = try ChatStore(file: temporaryDatabase())
        try fresh.importChats(ChatArchive.parse(exported))
        #expect(ChatArchive.json(try fresh.archiveAll()) == exported)
        #expect(try fresh.archiveAll() == (try original.archiveAll()))
        let reply = try #require(try fresh.archiveAll().first { $0.summary.title == "Weather “today”" }?.messages.last)
        #expect(reply.text == "Let me see. You are near (1, 2). **Sunny** — 👋\n\nError: the server is overloaded")
        #expect(reply.modelText == "Let me see. You are near (1, 2). **Sunny** — 👋", "the error is known as Agent's words")
    }

    @Test("Importing a chat that is already there adds a copy")
    func importTwice() throws {
        let store = try Self.sampleStore()
        let exported = ChatArchive.json(try store.archiveAll())
        try store.importChats(ChatArchive.parse(exported))
        let chats = try store.chats()
        #expect(chats.count == 4)
        #expect(Set(chats.map(\.id)).count == 4)
        #expect(chats.filter { $0.title == "Weather “today”" }.count == 2)
        let copies = try store.archiveAll().filter { $0.summary.title == "Weather “today”" }
        #expect(copies.map { $0.messages.last?.notices } == [[51..<84], [51..<84]])
    }

    @Test("An import is one transaction: a file that fails halfway adds nothing")
    func importIsAllOrNothing() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let repeated = ChatMessage(role: .user, text: "twice", state: .done)
        let chats = [ChatArchive.Chat(summary: ChatSummary(title: "Fine"), messages: [ChatMessage(role: .user, text: "ok", state: .done)]),
                     ChatArchive.Chat(summary: ChatSummary(title: "Broken"), messages: [repeated, repeated])]
        #expect(throws: SQLiteError.self) { try store.importChats(chats) }
        #expect(try store.chats().isEmpty, "the chat before the failure was rolled back too")
    }

    @Test("The chats are the user's alone: a 0700 folder, 0600 files (the journal too), tightened when found wider")
    func privateFiles() throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        try store.createChat(ChatSummary(title: "private"))
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(file.deletingLastPathComponent().path) == 0o700)
        #expect(try mode(file.path) == 0o600)
        #expect(try mode(file.path + "-wal") == 0o600)
        // A folder the user chose stays as they made it; the chats file is tightened.
        chmod(file.path, 0o644)
        chmod(file.deletingLastPathComponent().path, 0o755)
        _ = try ChatStore(file: file)
        #expect(try mode(file.path) == 0o600 && mode(file.deletingLastPathComponent().path) == 0o755)
        // Named through a link to a file not made yet: made 0600 where the link points.
        let target = file.deletingLastPathComponent().appending(path: "target.sqlite")
        let link = file.deletingLastPathComponent().appending(path: "link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        _ = try ChatStore(file: link)
        #expect(try mode(target.path) == 0o600)
        // The app's own folder is tightened.
        let own = AppIdentity.cacheDirectory.appending(path: "private-files-test-\(UUID())")
        defer { try? FileManager.default.removeItem(at: own) }
        try PrivateFiles.makeDirectory(own)
        chmod(own.path, 0o755)
        try PrivateFiles.makeDirectory(own)
        #expect(try mode(own.path) == 0o700)
    }

    @Test func markdownReadsLikeTheChat() throws {
        let store = try Self.sampleStore()
        let chat = try #require(try store.chats().first { $0.title.hasPrefix("Weather") })
        let markdown = ChatArchive.markdown(try #require(try store.archive(chat.id)))
        #expect(markdown.hasPrefix("# Weather “today”\n"))
        #expect(markdown.contains("> System prompt: Be terse."))
        #expect(markdown.contains("**You** · "))
        #expect(markdown.contains("Where am I?\nAnd the weather?"))
        #expect(markdown.contains("**assistant (qwen3)** · ") && markdown.contains(" · cut off"))
        #expect(markdown.contains("> Tool `get_location({\"precise\":true,\"n\":2.5})` → latitude: 1.0, longitude: 2.0"))
    }

    @Test("Files that are not exports are refused with a reason", arguments: ["", "{}", "[1,2]", #"{"format":"agent-chats","version":99,"chats":[]}"#,
                                                                         #"{"format":"agent-chats","version":1,"chats":[{"title":"no id"}]}"#])
    func badImports(text: String) {
        #expect(throws: ChatArchive.FormatError.self) { try ChatArchive.parse(text) }
    }
}

@Suite("Context budget")
struct ContextWindowTests {
    func message(_ role: Role, _ size: Int) -> ChatMessage {
        ChatMessage(role: role, text: String(repeating: "x", count: size), state: .done)
    }

    @Test func everythingFitsUnderABigBudget() {
        let messages = [message(.user, 10), message(.assistant, 10), message(.user, 10)]
        #expect(ContextWindow.select(messages, systemPrompt: "sys", budget: 10_000).map(\.role) == [.system, .user, .assistant, .user])
    }

    @Test("Oldest turns go first; the system prompt and the newest turn always stay")
    func trimming() {
        let messages = [message(.user, 400), message(.assistant, 400), message(.user, 400), message(.assistant, 400), message(.user, 40)]
        let kept = ContextWindow.select(messages, systemPrompt: "Be kind.", budget: 250)
        #expect(kept.first?.role == .system && kept.first?.text == "Be kind.")
        #expect(kept.last == messages.last)
        #expect(kept.count == 4, "system + the last full exchange + the newest user turn")
        #expect(kept[1] == messages[2], "it starts on a user message")
        let tiny = ContextWindow.select(messages, systemPrompt: "Be kind.", budget: 1)
        #expect(tiny.map(\.role) == [.system, .user], "over budget, the newest turn still goes")
    }

    @Test func noSystemPromptNoSystemMessage() {
        #expect(ContextWindow.select([message(.user, 5)], systemPrompt: "", budget: 100).map(\.role) == [.user])
    }

    @Test("An import file is untrusted: absurd numbers give an error or a neutral value, never a crash")
    func absurdNumbersInAnImport() throws {
        #expect(throws: ChatArchive.FormatError.self) {
            try ChatArchive.parse(#"{"format":"agent-chats","version":1e300,"chats":[]}"#)
        }
        let exported = ChatArchive.json([ChatArchive.Chat(summary: ChatSummary(title: "t"), messages: [
            ChatMessage(role: .user, text: "hi", state: .done),
        ])])
        let hostile = exported.replacingOccurrences(of: #""time":"#, with: #""time":1e300,"was":"#)
            .replacingOccurrences(of: #""created":"#, with: #""created":-1e300,"was":"#)
        let chats = try ChatArchive.parse(hostile)
        #expect(chats.first?.messages.first?.time == Date(timeIntervalSince1970: 0))
        #expect(chats.first?.summary.created == Date(timeIntervalSince1970: 0))
    }

    @Test("An MCP tool call keeps its server: the reopened chat and the JSON export show “server › tool” as the live reply did")
    func toolCallServerIsKept() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "time", model: "m"))
        var call = ToolCall(id: "c1", name: "get_current_time", arguments: .object([]), result: "12:00")
        call.server = "time"
        try store.save(ChatMessage(role: .assistant, text: "", state: .done, toolCalls: [call]), in: chat.id, seq: 0)
        let reopened = try #require(try store.messages(in: chat.id).first?.message.toolCalls.first)
        #expect(reopened.server == "time" && reopened.displayName == "time › get_current_time")
        let exported = try #require(try store.archive(chat.id))
        #expect(ChatArchive.json([exported]).contains(#""server":"time""#))
    }
}
