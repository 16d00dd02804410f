@testable import AgentCore
import Foundation
import Testing

/// The tree in the database and in exports: the migration of a database made by the
/// previous version, exports of both formats, round trips, and what a damaged file cannot do.
@Suite("A chat is a tree: the store and its files")
struct ChatTreeStorageTests {
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Fixtures").standardized
    static let lisbon = UUID(uuidString: "AAAAAAAA-0000-4000-8000-000000000001")!
    static let files = UUID(uuidString: "BBBBBBBB-0000-4000-8000-000000000002")!

    static func fixtureID(_ letter: Character, _ number: Int) -> UUID? {
        UUID(uuidString: "\(String(repeating: letter, count: 1))0000000-0000-4000-8000-0000000000\(number < 10 ? "0" : "")\(number)")
    }

    /// A copy of the schema-8 database the previous version wrote.
    static func previousVersionDatabase() throws -> URL {
        let copy = temporaryDatabase()
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appending(path: "chats-v8.sqlite"), to: copy)
        return copy
    }

    @Test("A database made by the previous version becomes single-branch trees, nothing lost")
    func migrationFromVersion8() throws {
        let file = try Self.previousVersionDatabase()
        let before = try SQLiteDatabase(path: file.path)
        #expect(try ChatStoreSchema.version(of: before) == 8)
        let rowsBefore = try before.query("SELECT id, chat_id, seq, role, text, state, tool_calls, reasoning FROM messages ORDER BY chat_id, seq")
        let attachmentsBefore = try before.query("SELECT message_id, position, name, digest FROM message_attachments ORDER BY message_id, position")
        let store = try ChatStore(file: file)
        #expect(store.schemaVersion == ChatStoreSchema.latestVersion)

        let lisbon = try store.messages(in: Self.lisbon).map(\.message)
        #expect(lisbon.count == 11)
        #expect(lisbon.map(\.parentID) == [nil] + lisbon.dropLast().map(\.id), "each message follows the one before it")
        let leaf = try #require(try store.currentLeaf(of: Self.lisbon))
        #expect(leaf == Self.fixtureID("A", 11))
        #expect(try store.branch(endingAt: leaf).map(\.message) == lisbon)
        #expect(lisbon[7].state == .cutOff && lisbon[8].state == .failed && lisbon[9].state == .done)
        #expect(lisbon[1].toolCalls.count == 3 && lisbon[3].reasoning?.seconds == 12.75 && lisbon[5].sources.count == 2)
        #expect(try store.chat(Self.lisbon)?.chosenModel == .server("qwen3:8b"))
        #expect(try store.chat(Self.lisbon)?.toolsEnabled == true, "settings not in the old file follow Preferences")
        #expect(try store.versions(of: lisbon, in: Self.lisbon).isEmpty)

        let files = try store.messages(in: Self.files).map(\.message)
        #expect(files[0].attachments.map(\.name) == ["notes.txt", "pixel.png"])
        #expect(files[2].attachments.map(\.name) == ["notes.txt"])
        #expect(try store.search("castle").contains { $0.messageID == Self.fixtureID("A", 8) })
        #expect(try store.presets().count == 3)

        let after = try SQLiteDatabase(path: file.path)
        #expect(try after.query("SELECT id, chat_id, seq, role, text, state, tool_calls, reasoning FROM messages ORDER BY chat_id, seq")
                == rowsBefore, "every message as it was")
        #expect(try after.query("SELECT message_id, position, name, digest FROM message_attachments ORDER BY message_id, position")
                == attachmentsBefore)
        #expect(try after.query("PRAGMA integrity_check").first?.first?.text == "ok")
    }

    @Test("An export made by the previous version still imports, each chat one branch")
    func previousExportImports() throws {
        let text = try String(contentsOf: Self.fixtures.appending(path: "export-v1.json"), encoding: .utf8)
        let chats = try ChatArchive.parse(text)
        let store = try ChatStore(file: temporaryDatabase())
        try store.importChats(chats)
        #expect(try store.chats().count == 3)
        let lisbon = try #require(try store.archive(Self.lisbon))
        #expect(lisbon.messages.count == 11)
        #expect(lisbon.summary.currentMessageID == Self.fixtureID("A", 11))
        #expect(lisbon.branchShown == lisbon.messages)
        #expect(try store.archive(Self.files)?.messages.first?.attachments.map(\.name) == ["notes.txt", "pixel.png"])
    }

    /// A chat with a regenerated reply and an edited question: three branches.
    static func treeStore() throws -> (ChatStore, ChatSummary, [ChatMessage]) {
        let store = try ChatStore(file: temporaryDatabase())
        var summary = ChatSummary(title: "Tree", systemPrompt: "Be brief.", temperature: 0.4, maxTokens: 300, toolsEnabled: false,
                                  preset: "Translator")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func message(_ role: Role, _ text: String, _ parent: ChatMessage?, _ second: Double) -> ChatMessage {
            ChatMessage(parentID: parent?.id, role: role, text: text, time: start + second, state: .done)
        }
        let question = message(.user, "Name a colour", nil, 1)
        let red = message(.assistant, "Red", question, 2)
        let blue = message(.assistant, "Blue", question, 3)
        let why = message(.user, "Why blue?", blue, 4)
        let sky = message(.assistant, "The sky.", why, 5)
        let edited = message(.user, "Name a fruit", nil, 6)
        let pear = message(.assistant, "Pear", edited, 7)
        let messages = [question, red, blue, why, sky, edited, pear]
        summary.currentMessageID = red.id
        try store.createChat(summary)
        try store.saveAll(messages, in: summary.id, firstSeq: 0)
        return (store, summary, messages)
    }

    @Test("Export → import round-trips the tree, the branch shown and the settings exactly")
    func treeRoundTrip() throws {
        let (store, summary, messages) = try Self.treeStore()
        let exported = ChatArchive.json(try store.archiveAll())
        #expect(exported.contains("\"parent\":null") && exported.contains("\"current\":\"\(messages[1].id.uuidString)\""))
        let fresh = try ChatStore(file: temporaryDatabase())
        try fresh.importChats(ChatArchive.parse(exported))
        #expect(ChatArchive.json(try fresh.archiveAll()) == exported)
        let chat = try #require(try fresh.archive(summary.id))
        #expect(chat.messages == messages)
        #expect(chat.summary.settings == summary.settings && chat.summary.preset == "Translator")
        #expect(try fresh.currentLeaf(of: summary.id) == messages[1].id)
        #expect(try fresh.versions(of: [messages[1]], in: summary.id)[messages[1].id] == [messages[1].id, messages[2].id])
        #expect(try fresh.versions(of: [messages[0]], in: summary.id)[messages[0].id] == [messages[0].id, messages[5].id])

        try fresh.importChats(ChatArchive.parse(exported))
        let copy = try #require(try fresh.chats().first { $0.id != summary.id })
        let copied = try #require(try fresh.archive(copy.id))
        #expect(copied.messages.map(\.text) == messages.map(\.text))
        #expect(copied.branchShown.map(\.text) == ["Name a colour", "Red"], "the copy keeps its tree under new ids")
    }

    @Test("Markdown exports the branch shown")
    func markdownBranch() throws {
        let (store, summary, _) = try Self.treeStore()
        let blue = try store.messages(in: summary.id)[2].message.id
        try store.setCurrent(summary.id, try store.leaf(from: blue, in: summary.id))
        let markdown = ChatArchive.markdown(try #require(try store.archive(summary.id)))
        #expect(markdown.contains("Why blue?") && markdown.contains("The sky."))
        #expect(!markdown.contains("Red") && !markdown.contains("fruit"))
    }

    @Test("A file whose messages name a later or unknown parent, or repeat an id, is refused")
    func damagedTreeRefused() throws {
        let (store, _, messages) = try Self.treeStore()
        let exported = ChatArchive.json(try store.archiveAll())
        let forward = exported.replacingOccurrences(of: "\"parent\":null", with: "\"parent\":\"\(messages[6].id.uuidString)\"")
        #expect(throws: ChatArchive.FormatError.self) { try ChatArchive.parse(forward) }
        let repeated = exported.replacingOccurrences(of: messages[6].id.uuidString, with: messages[5].id.uuidString)
        #expect(throws: ChatArchive.FormatError.self) { try ChatArchive.parse(repeated) }
    }

    @Test("Going down a branch follows the version chosen last, else the newest")
    func goingDown() throws {
        let (store, summary, messages) = try Self.treeStore()
        #expect(try store.leaf(from: messages[0].id, in: summary.id) == messages[4].id, "the newest reply, Blue, and on")
        try store.choose(version: messages[1].id, under: messages[0].id)
        #expect(try store.leaf(from: messages[0].id, in: summary.id) == messages[1].id)
        #expect(try store.branch(after: messages[0].id, in: summary.id, limit: 10).map(\.message.text) == ["Red"])
        #expect(try store.isOnBranch(messages[3].id, endingAt: messages[4].id))
        #expect(try !store.isOnBranch(messages[1].id, endingAt: messages[4].id))
    }

    @Test("A message is found by its id alone, with its chat and files")
    func messageByID() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "find"))
        let file = AttachedFile(name: "a.txt", mediaType: "text/plain", byteCount: 1, data: Data("a".utf8), text: "a")
        let question = ChatMessage(role: .user, text: "q", state: .done, attachments: [file])
        try store.saveAll([question], in: chat.id, firstSeq: 0)
        let found = try #require(try store.message(question.id))
        #expect(found.chat == chat.id)
        #expect(found.stored.message.text == "q")
        #expect(found.stored.message.attachments == [file])
        #expect(try store.message(UUID())?.chat == nil)
    }

    @Test("A damaged file whose messages link in a loop: every walk up or down ends, each message once",
          .timeLimit(.minutes(1)))
    func loopInADamagedFile() throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        let chat = try store.createChat(ChatSummary(title: "damaged"))
        let messages = ChatMessage.chained(["one", "two", "three", "four"].enumerated().map {
            ChatMessage(role: $0.offset % 2 == 0 ? .user : .assistant, text: $0.element, state: .done)
        })
        try store.saveAll(messages, in: chat.id, firstSeq: 0)
        // The first question now hangs below its own reply, which goes down to it: a loop.
        let database = try SQLiteDatabase(path: file.path)
        try database.query("UPDATE messages SET parent_id = ? WHERE id = ?", [.text(messages[1].id.uuidString), .text(messages[0].id.uuidString)])
        try database.query("UPDATE messages SET active_child = ? WHERE id = ?", [.text(messages[0].id.uuidString), .text(messages[1].id.uuidString)])

        #expect(try store.branch(endingAt: messages[3].id).map(\.message.text) == ["one", "two", "three", "four"])
        #expect(try store.branch(endingAt: messages[1].id, limit: 10).map(\.message.text) == ["one", "two"])
        #expect(try [messages[0].id, messages[1].id].contains(store.leaf(from: messages[0].id, in: chat.id)))
        #expect(try store.branch(after: messages[0].id, in: chat.id, limit: 10).map(\.message.text) == ["two"])
        #expect(try !store.isOnBranch(UUID(), endingAt: messages[3].id))
    }

    @Test("After a crash, a question whose reply had begun is delivered, in any branch")
    func crashRecoveryInATree() throws {
        let file = temporaryDatabase()
        var store: ChatStore? = try ChatStore(file: file)
        let chat = try #require(try store?.createChat(ChatSummary(title: "crash")))
        let question = ChatMessage(role: .user, text: "q", state: .sending)
        let reply = ChatMessage(parentID: question.id, role: .assistant, text: "part", state: .streaming)
        let other = ChatMessage(role: .user, text: "q2", state: .sending)
        try store?.saveAll([question, reply, other], in: chat.id, firstSeq: 0)
        store = nil  // the process ends
        let reopened = try ChatStore(file: file)
        #expect(try reopened.messages(in: chat.id).map(\.message.state) == [.done, .cutOff, .failed])
    }
}
