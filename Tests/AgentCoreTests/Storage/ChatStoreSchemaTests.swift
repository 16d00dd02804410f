@testable import AgentCore
import Foundation
import Testing

/// The chat database's layout: a new one at the latest version, every earlier one migrated
/// forward with its data, a newer one refused.
@Suite("Chat store schema (SQLite)")
struct ChatStoreSchemaTests {
    @Test func newDatabasesAreAtTheLatestVersionInWALModeWithForeignKeys() throws {
        let file = temporaryDatabase()
        let store = try ChatStore(file: file)
        #expect(store.schemaVersion == ChatStoreSchema.latestVersion)
        let database = try SQLiteDatabase(path: file.path)
        #expect(try database.query("PRAGMA journal_mode").first?.first?.text == "wal")
        let chat = try store.createChat(ChatSummary(title: "with messages"))
        try store.save(ChatMessage(role: .user, text: "hello", state: .done), in: chat.id, seq: 0)
        #expect(throws: SQLiteError.self, "foreign keys are enforced") {
            try store.save(ChatMessage(role: .user, text: "orphan", state: .done), in: UUID(), seq: 0)
        }
    }

    /// Makes a database at schema `version` holding data valid at that version.
    static func database(atVersion version: Int) throws -> URL {
        let file = temporaryDatabase()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: file.path)
        try ChatStoreSchema.migrate(database, to: version)
        guard version >= 1 else { return file }
        try database.query("INSERT INTO chats (id, title, created, updated, model, server_profile, system_prompt) VALUES (?, ?, 1, 2, 'm', NULL, 'be brief')",
                           [.text("11111111-1111-1111-1111-111111111111"), .text("Old chat about volcanoes")])
        for (seq, role, text) in [(0, "user", "Tell me about volcanoes"), (1, "assistant", "Volcanoes are openings in the crust.")] {
            try database.query("INSERT INTO messages (id, chat_id, seq, role, text, model, created, updated, state) VALUES (?, ?, ?, ?, ?, 'm', 3, 3, 'done')",
                               [.text(UUID().uuidString), .text("11111111-1111-1111-1111-111111111111"), .integer(Int64(seq)),
                                .text(role), .text(text)])
        }
        if version >= 2 {
            try database.query("UPDATE messages SET tool_calls = ?, completion_tokens = 12 WHERE role = 'assistant'",
                               [.text(#"[{"id":"c1","name":"get_location","arguments":{},"result":"latitude: 1.0, longitude: 2.0","failed":false,"textOffset":0,"round":0}]"#)])
        }
        return file
    }

    @Test("Every earlier schema version migrates forward with its data intact", arguments: 0..<ChatStoreSchema.latestVersion)
    func migrations(from version: Int) throws {
        let file = try Self.database(atVersion: version)
        let store = try ChatStore(file: file)
        #expect(store.schemaVersion == ChatStoreSchema.latestVersion)
        guard version >= 1 else {
            #expect(try store.chats().isEmpty)
            return
        }
        let chats = try store.chats()
        #expect(chats.map(\.title) == ["Old chat about volcanoes"])
        #expect(chats.first?.systemPrompt == "be brief")
        let messages = try store.messages(in: chats[0].id).map(\.message)
        #expect(messages.map(\.text) == ["Tell me about volcanoes", "Volcanoes are openings in the crust."])
        if version >= 2 {
            #expect(messages[1].toolCalls.first?.result == "latitude: 1.0, longitude: 2.0")
            #expect(messages[1].usage?.completionTokens == 12)
        }
        #expect(try store.search("volcano").contains { $0.messageID != nil }, "full-text search covers old rows")
        #expect(try store.search("volcanoes").contains { $0.messageID == nil }, "and old titles")
    }

    @Test func aNewerDatabaseIsRefusedNotGuessedAt() throws {
        let file = temporaryDatabase()
        _ = try ChatStore(file: file)
        let database = try SQLiteDatabase(path: file.path)
        try database.execute("PRAGMA user_version = \(ChatStoreSchema.latestVersion + 1)")
        #expect(throws: SQLiteError.self) { try ChatStore(file: file) }
    }

    @Test("Two processes opening an old database at once: the one that read the version before the other migrated skips the steps done, or refuses a newer Agent's")
    func migrationRunTwice() throws {
        let file = try Self.database(atVersion: ChatStoreSchema.latestVersion - 1)
        let database = try SQLiteDatabase(path: file.path)
        try ChatStoreSchema.migrate(database)
        try ChatStoreSchema.migrate(database, from: ChatStoreSchema.latestVersion - 1, to: ChatStoreSchema.latestVersion)
        #expect(try ChatStoreSchema.version(of: database) == ChatStoreSchema.latestVersion)
        try database.execute("PRAGMA user_version = \(ChatStoreSchema.latestVersion + 1)")
        #expect(throws: SQLiteError.self, "a newer Agent's migration meanwhile is refused") {
            try ChatStoreSchema.migrate(database, from: ChatStoreSchema.latestVersion - 1, to: ChatStoreSchema.latestVersion)
        }
    }
}
