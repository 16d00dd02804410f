import FoundationEssentials
import Synchronization

/// A chat as the sidebar lists it, with its settings and the branch it shows.
public struct ChatSummary: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var title: String
    public var created: Date
    public var updated: Date
    public var model: String?
    public var serverProfile: String?
    public var systemPrompt: String
    /// The folders the chat asks about (knowledge), as paths.
    public var knowledgeFolders: [String]
    /// The model chosen for the chat (nil: the default); `model` is the one that last answered.
    public var chosenModel: ModelChoice?
    /// nil: as in Preferences.
    public var temperature: Double?
    /// The longest reply in tokens; nil: as in Preferences.
    public var maxTokens: Int?
    public var toolsEnabled: Bool
    /// The preset the chat was started from, by name.
    public var preset: String?
    /// The last message of the branch shown; nil in a chat with no messages.
    public var currentMessageID: UUID?

    public init(id: UUID = UUID(), title: String, created: Date = Date(), updated: Date = Date(), model: String? = nil,
                serverProfile: String? = nil, systemPrompt: String = "", knowledgeFolders: [String] = [],
                chosenModel: ModelChoice? = nil, temperature: Double? = nil, maxTokens: Int? = nil, toolsEnabled: Bool = true,
                preset: String? = nil, currentMessageID: UUID? = nil) {
        self.id = id
        self.title = title
        self.created = created
        self.updated = updated
        self.model = model
        self.serverProfile = serverProfile
        self.systemPrompt = systemPrompt
        self.knowledgeFolders = knowledgeFolders
        self.chosenModel = chosenModel
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.toolsEnabled = toolsEnabled
        self.preset = preset
        self.currentMessageID = currentMessageID
    }

    /// What the chat asks of the model.
    public var settings: ChatSettings {
        get {
            ChatSettings(systemPrompt: systemPrompt, model: chosenModel, temperature: temperature, maxTokens: maxTokens,
                         toolsEnabled: toolsEnabled)
        }
        set {
            systemPrompt = newValue.systemPrompt
            chosenModel = newValue.model
            temperature = newValue.temperature
            maxTokens = newValue.maxTokens
            toolsEnabled = newValue.toolsEnabled
        }
    }
}

/// A message with its place in its chat.
public struct StoredMessage: Sendable, Equatable {
    public let seq: Int
    public var message: ChatMessage
}

/// Every chat and message, in SQLite (`$XDG_DATA_HOME/<app id>/chats.sqlite`): WAL mode,
/// foreign keys, a versioned schema migrated forward on open, bound parameters only.
/// Opening also settles what a crash left behind: replies that were streaming are marked
/// cut off, messages never answered are marked failed — when no other store, in this process
/// or another, has the file open (`StoreUseLock`).
public final class ChatStore: Sendable {
    public let file: URL
    private let database: Mutex<SQLiteDatabase>
    /// Held for the store's lifetime: other processes see it open (see `StoreUseLock`).
    private let users: StoreUseLock

    public static var defaultFile: URL { AppIdentity.dataDirectory.appending(path: "chats.sqlite") }

    /// `busyTimeout`: how long a write waits for another connection's lock before failing.
    public init(file: URL = ChatStore.defaultFile, busyTimeout: Duration = .seconds(5)) throws {
        self.file = file
        // SQLite gives the -wal and -shm files the database file's permissions.
        try PrivateFiles.prepareFile(file)
        let database = try SQLiteDatabase(path: file.path, busyTimeout: busyTimeout)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
        try ChatStoreSchema.migrate(database)
        users = StoreUseLock(beside: file)
        if users.isAlone { try Self.tidy(database) }
        users.share()
        self.database = Mutex(database)
    }

    public var schemaVersion: Int {
        (try? database.withLock { try ChatStoreSchema.version(of: $0) }) ?? 0
    }

    @discardableResult
    func run<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try database.withLock { try body($0) }
    }

    // MARK: Chats

    private static let chatColumns = """
        id, title, created, updated, model, server_profile, system_prompt, knowledge_folders, chosen_model, chosen_model_place,
        temperature, max_tokens, tools_enabled, preset, current_id
        """

    /// The chats, most recently updated first (deleted ones left out).
    public func chats() throws -> [ChatSummary] {
        try run { database in
            try database.query("SELECT \(Self.chatColumns) FROM chats WHERE deleted_at IS NULL ORDER BY updated DESC")
                .compactMap(Self.chat(from:))
        }
    }

    public func chat(_ id: UUID) throws -> ChatSummary? {
        try run { database in
            try database.query("SELECT \(Self.chatColumns) FROM chats WHERE id = ? AND deleted_at IS NULL",
                               [.text(id.uuidString)]).first.flatMap(Self.chat(from:))
        }
    }

    @discardableResult
    public func createChat(_ chat: ChatSummary) throws -> ChatSummary {
        try run { try Self.insert(chat, into: $0) }
        return chat
    }

    static func insert(_ chat: ChatSummary, into database: SQLiteDatabase) throws {
        try database.query("INSERT INTO chats (\(chatColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values(chat))
    }

    public func renameChat(_ id: UUID, to title: String) throws {
        try run { try $0.query("UPDATE chats SET title = ? WHERE id = ?", [.text(title), .text(id.uuidString)]) }
    }

    /// The folders `id` asks about.
    public func setKnowledgeFolders(_ id: UUID, _ folders: [String]) throws {
        try run { try $0.query("UPDATE chats SET knowledge_folders = ? WHERE id = ?",
                               [SQLiteValue(KnowledgeFolderList.jsonText(folders)), .text(id.uuidString)]) }
    }

    /// The model chosen for `id`; nil goes back to the default.
    public func setChosenModel(_ id: UUID, _ choice: ModelChoice?) throws {
        try run { try $0.query("UPDATE chats SET chosen_model = ?, chosen_model_place = ? WHERE id = ?",
                               [SQLiteValue(choice?.name), SQLiteValue(choice?.place.rawValue), .text(id.uuidString)]) }
    }

    /// What `id` asks of the model: its system prompt, model, temperature, reply length, tools.
    public func setSettings(_ id: UUID, _ settings: ChatSettings) throws {
        try run { database in
            try database.query("""
                UPDATE chats SET system_prompt = ?, chosen_model = ?, chosen_model_place = ?, temperature = ?, max_tokens = ?,
                    tools_enabled = ? WHERE id = ?
                """, [.text(settings.systemPrompt), SQLiteValue(settings.model?.name), SQLiteValue(settings.model?.place.rawValue),
                      SQLiteValue(settings.temperature), SQLiteValue(settings.maxTokens), .integer(settings.toolsEnabled ? 1 : 0),
                      .text(id.uuidString)])
        }
    }

    /// Records activity: the chat moves to the top of the list.
    public func touchChat(_ id: UUID, at date: Date = Date(), model: String? = nil) throws {
        try run { database in
            try database.query("UPDATE chats SET updated = ?, model = COALESCE(?, model) WHERE id = ?",
                               [.real(date.timeIntervalSince1970), SQLiteValue(model), .text(id.uuidString)])
        }
    }

    /// Hides a chat; `restoreChat` brings it back until the store is next opened.
    public func deleteChat(_ id: UUID) throws {
        try run { database in
            try database.query("UPDATE chats SET deleted_at = ? WHERE id = ?", [.real(Date().timeIntervalSince1970), .text(id.uuidString)])
        }
    }

    public func restoreChat(_ id: UUID) throws {
        try run { try $0.query("UPDATE chats SET deleted_at = NULL WHERE id = ?", [.text(id.uuidString)]) }
    }

    // MARK: Messages

    static let messageColumns = """
        m.id, m.seq, m.role, m.text, m.model, m.created, m.state, m.tool_calls, m.prompt_tokens, m.completion_tokens,
        m.generation_seconds, m.sources, m.reasoning, m.reasoning_seconds, m.parent_id, m.notices
        """

    /// How many messages `chat` holds, in every branch.
    public func messageCount(in chat: UUID) throws -> Int {
        try run { database in
            Int(try database.query("SELECT count(*) FROM messages WHERE chat_id = ? AND deleted_at IS NULL",
                                   [.text(chat.uuidString)]).first?.first?.integer ?? 0)
        }
    }

    /// Every message of `chat`, in every branch, in the order they were written (parents first).
    public func messages(in chat: UUID) throws -> [StoredMessage] {
        try run { database in
            let rows = try database.query("SELECT \(Self.messageColumns) FROM messages m WHERE m.chat_id = ? AND m.deleted_at IS NULL ORDER BY m.seq",
                                          [.text(chat.uuidString)])
            return try Self.withAttachments(rows.compactMap(Self.message(from:)), database: database)
        }
    }

    /// Message `id` with the chat it is in; nil when there is none.
    public func message(_ id: UUID) throws -> (chat: UUID, stored: StoredMessage)? {
        try run { database in
            let rows = try database.query("SELECT \(Self.messageColumns), m.chat_id FROM messages m WHERE m.id = ? AND m.deleted_at IS NULL",
                                          [.text(id.uuidString)])
            guard let row = rows.first,
                  let chat = row[16].text.flatMap(UUID.init(uuidString:)), let stored = Self.message(from: row) else { return nil }
            return try Self.withAttachments([stored], database: database).first.map { (chat, $0) }
        }
    }

    /// The seq a new message in `chat` gets.
    public func nextSeq(in chat: UUID) throws -> Int {
        try run { database in
            Int(try database.query("SELECT COALESCE(MAX(seq) + 1, 0) FROM messages WHERE chat_id = ?",
                                   [.text(chat.uuidString)]).first?.first?.integer ?? 0)
        }
    }

    /// Inserts or updates a message (its parent is set when it is inserted). A new message
    /// goes at `seq` or, when the chat has messages there or later, after its last: another
    /// process (the window, `agent-cli`) may have added to the chat since this one counted.
    public func save(_ message: ChatMessage, in chat: UUID, seq: Int) throws {
        try run { database in
            try database.query("""
                INSERT INTO messages (id, chat_id, seq, role, text, model, created, updated, state, tool_calls,
                                      prompt_tokens, completion_tokens, generation_seconds, sources, reasoning, reasoning_seconds, parent_id,
                                      notices)
                VALUES (?1, ?2, (SELECT MAX(?3, COALESCE(MAX(seq) + 1, 0)) FROM messages WHERE chat_id = ?2),
                        ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
                ON CONFLICT(id) DO UPDATE SET text = excluded.text, model = excluded.model, created = excluded.created,
                    updated = excluded.updated, state = excluded.state, tool_calls = excluded.tool_calls,
                    prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
                    generation_seconds = excluded.generation_seconds, sources = excluded.sources,
                    reasoning = excluded.reasoning, reasoning_seconds = excluded.reasoning_seconds, notices = excluded.notices
                """, Self.values(message, in: chat, seq: seq, updated: Date()))
            if !message.attachments.isEmpty { try Self.insertAttachments(of: message, into: database) }
        }
    }

    /// Saves many messages in one transaction (imports, tests, benchmarks), with the parents
    /// they name.
    public func saveAll(_ messages: [ChatMessage], in chat: UUID, firstSeq: Int) throws {
        try run { database in
            try database.transaction { try Self.insert(messages, in: chat, firstSeq: firstSeq, into: database) }
        }
    }

    static func insert(_ messages: [ChatMessage], in chat: UUID, firstSeq: Int, into database: SQLiteDatabase) throws {
        for (offset, message) in messages.enumerated() {
            try database.query("""
                INSERT INTO messages (id, chat_id, seq, role, text, model, created, updated, state, tool_calls,
                                      prompt_tokens, completion_tokens, generation_seconds, sources, reasoning, reasoning_seconds, parent_id,
                                      notices)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values(message, in: chat, seq: firstSeq + offset, updated: message.time))
            try insertAttachments(of: message, into: database)
        }
    }

    private static func values(_ message: ChatMessage, in chat: UUID, seq: Int, updated: Date) -> [SQLiteValue] {
        [.text(message.id.uuidString), .text(chat.uuidString), .integer(Int64(seq)), .text(message.role.rawValue),
         .text(message.text), SQLiteValue(message.model), .real(message.time.timeIntervalSince1970),
         .real(updated.timeIntervalSince1970), .text(message.state.rawValue),
         SQLiteValue(ToolCall.jsonText(message.toolCalls)), SQLiteValue(message.usage?.promptTokens),
         SQLiteValue(message.usage?.completionTokens), SQLiteValue(message.usage?.generationSeconds),
         SQLiteValue(KnowledgeSource.jsonText(message.sources)), SQLiteValue(message.reasoning?.text),
         SQLiteValue(message.reasoning?.seconds), SQLiteValue(message.parentID?.uuidString),
         SQLiteValue(ChatMessage.noticesJSONText(message.notices))]
    }

    /// Runs `body` on the database in one transaction: all of it lands, or none of it.
    func inTransaction<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try run { database in try database.transaction { try body(database) } }
    }

    public func deleteMessage(_ id: UUID) throws {
        try run { try $0.query("DELETE FROM messages WHERE id = ?", [.text(id.uuidString)]) }
    }

    // MARK: Search

    /// Chats whose title, messages whose text, and messages whose attached files contain
    /// every word of `text` (as prefixes): titles first, then messages, then files, by relevance.
    public func search(_ text: String, limit: Int = 50) throws -> [SearchHit] {
        let words = text.split { !$0.isLetter && !$0.isNumber }.map { "\"\($0)\"*" }
        guard !words.isEmpty else { return [] }
        let query = words.joined(separator: " ")
        return try run { database in
            let titles = try database.query("""
                SELECT c.id, c.title, highlight(chat_search, 0, ?, ?) FROM chat_search JOIN chats c ON c.rowid = chat_search.rowid
                WHERE chat_search MATCH ? AND c.deleted_at IS NULL ORDER BY rank LIMIT ?
                """, SearchHit.marks + [.text(query), .integer(Int64(limit))]).compactMap { row -> SearchHit? in
                guard let id = row[0].text.flatMap(UUID.init(uuidString:)), let title = row[1].text else { return nil }
                return SearchHit(chatID: id, chatTitle: title, messageID: nil, marked: row[2].text ?? title)
            }
            let messages = try database.query("""
                SELECT m.chat_id, c.title, m.id, snippet(message_search, 0, ?, ?, '…', 12)
                FROM message_search JOIN messages m ON m.rowid = message_search.rowid JOIN chats c ON c.id = m.chat_id
                WHERE message_search MATCH ? AND c.deleted_at IS NULL AND m.deleted_at IS NULL ORDER BY rank LIMIT ?
                """, SearchHit.marks + [.text(query), .integer(Int64(limit))]).compactMap { row -> SearchHit? in
                guard let chat = row[0].text.flatMap(UUID.init(uuidString:)), let title = row[1].text,
                      let message = row[2].text.flatMap(UUID.init(uuidString:)) else { return nil }
                return SearchHit(chatID: chat, chatTitle: title, messageID: message, marked: (row[3].text ?? "").markdownOnOneLine)
            }
            let files = try Self.searchAttachments(query, limit: limit, database: database)
            return titles + messages + files
        }
    }

    // MARK: Rows

    private static func values(_ chat: ChatSummary) -> [SQLiteValue] {
        [.text(chat.id.uuidString), .text(chat.title), .real(chat.created.timeIntervalSince1970),
         .real(chat.updated.timeIntervalSince1970), SQLiteValue(chat.model), SQLiteValue(chat.serverProfile), .text(chat.systemPrompt),
         SQLiteValue(KnowledgeFolderList.jsonText(chat.knowledgeFolders)), SQLiteValue(chat.chosenModel?.name),
         SQLiteValue(chat.chosenModel?.place.rawValue), SQLiteValue(chat.temperature), SQLiteValue(chat.maxTokens),
         .integer(chat.toolsEnabled ? 1 : 0), SQLiteValue(chat.preset), SQLiteValue(chat.currentMessageID?.uuidString)]
    }

    private static func chat(from row: [SQLiteValue]) -> ChatSummary? {
        guard let id = row[0].text.flatMap(UUID.init(uuidString:)) else { return nil }
        return ChatSummary(id: id, title: row[1].text ?? "", created: Date(timeIntervalSince1970: row[2].real ?? 0),
                           updated: Date(timeIntervalSince1970: row[3].real ?? 0), model: row[4].text,
                           serverProfile: row[5].text, systemPrompt: row[6].text ?? "",
                           knowledgeFolders: KnowledgeFolderList.folders(fromJSONText: row[7].text),
                           chosenModel: row[8].text.map { ModelChoice(name: $0, place: row[9].text.flatMap(ModelChoice.Place.init) ?? .server) },
                           temperature: row[10].real, maxTokens: row[11].integer.map(Int.init), toolsEnabled: row[12].integer != 0,
                           preset: row[13].text, currentMessageID: row[14].text.flatMap(UUID.init(uuidString:)))
    }

    static func message(from row: [SQLiteValue]) -> StoredMessage? {
        guard let id = row[0].text.flatMap(UUID.init(uuidString:)), let seq = row[1].integer,
              let role = row[2].text.flatMap(Role.init(rawValue:)) else { return nil }
        let usage: TokenUsage? = row[8] == .null && row[9] == .null && row[10] == .null ? nil
            : TokenUsage(promptTokens: row[8].integer.map(Int.init), completionTokens: row[9].integer.map(Int.init),
                         generationSeconds: row[10].real)
        let message = ChatMessage(id: id, parentID: row[14].text.flatMap(UUID.init(uuidString:)), role: role,
                                  text: row[3].text ?? "", model: row[4].text,
                                  time: Date(timeIntervalSince1970: row[5].real ?? 0),
                                  state: row[6].text.flatMap(MessageState.init(rawValue:)) ?? .done,
                                  toolCalls: ToolCall.list(fromJSONText: row[7].text), usage: usage,
                                  sources: KnowledgeSource.list(fromJSONText: row[11].text),
                                  reasoning: row[12].text.map { Reasoning(text: $0, seconds: row[13].real) },
                                  notices: ChatMessage.notices(fromJSONText: row[15].text, in: row[3].text ?? ""))
        return StoredMessage(seq: Int(seq), message: message)
    }
}
