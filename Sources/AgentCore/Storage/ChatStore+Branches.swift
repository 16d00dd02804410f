import FoundationEssentials

/// A chat as a tree: each message names its parent, and the messages with the same parent
/// are versions of one another. A branch is a path from a first message down; the chat
/// shows one (`current_id`, its last message). Going down from a message follows the
/// version last chosen below it (`active_child`), else the newest. A deleted branch is
/// hidden until the store is next opened (undo).
extension ChatStore {
    /// The most messages a walk up a branch from `message` can take: as many as its chat
    /// holds. A damaged file whose messages link in a loop would otherwise walk it forever.
    private static func walkLimit(from message: String, database: SQLiteDatabase) throws -> Int {
        Int(try database.query("SELECT count(*) FROM messages WHERE chat_id = (SELECT chat_id FROM messages WHERE id = ?)",
                               [.text(message)]).first?.first?.integer ?? 0)
    }

    /// `stored` (oldest first, as a walk up from `start` found it) up to where it would repeat
    /// a message, `start` included: what a loop in a damaged file adds is left out.
    private static func withoutLoop(_ stored: [StoredMessage], from start: UUID) -> [StoredMessage] {
        var seen: Set<UUID> = [start]
        var kept: [StoredMessage] = []
        for (step, message) in stored.reversed().enumerated() {
            // `start` itself comes first when the walk includes it.
            guard (step == 0 && message.message.id == start) || seen.insert(message.message.id).inserted else { break }
            kept.append(message)
        }
        return kept.reversed()
    }

    /// The branch ending at `last`: its newest `limit` messages (all when nil), oldest first;
    /// `including: false` leaves `last` itself out.
    public func branch(endingAt last: UUID, limit: Int? = nil, including: Bool = true) throws -> [StoredMessage] {
        try run { database in
            let skip = including ? 0 : 1
            let count = try limit.map { $0 + skip } ?? Self.walkLimit(from: last.uuidString, database: database)
            let rows = try database.query("""
                WITH RECURSIVE up(id, depth) AS (
                    SELECT ?, 0
                    UNION ALL
                    SELECT m.parent_id, up.depth + 1 FROM messages m JOIN up ON m.id = up.id
                    WHERE m.parent_id IS NOT NULL AND up.depth + 1 < ?
                )
                SELECT \(Self.messageColumns) FROM up JOIN messages m ON m.id = up.id WHERE up.depth >= ? ORDER BY up.depth DESC
                """, [.text(last.uuidString), .integer(Int64(count)), .integer(Int64(skip))])
            return try Self.withAttachments(Self.withoutLoop(rows.compactMap(Self.message(from:)), from: last), database: database)
        }
    }

    /// The messages after `first` down its branch, at most `limit`, oldest first: at each
    /// message the version chosen last below it, else the newest.
    public func branch(after first: UUID, in chat: UUID, limit: Int) throws -> [StoredMessage] {
        try run { database in
            var ids: [String] = []
            var seen: Set<String> = [first.uuidString]
            var current = first.uuidString
            while ids.count < limit, let next = try Self.chosenChild(of: current, in: chat, database: database),
                  seen.insert(next).inserted {
                ids.append(next)
                current = next
            }
            guard !ids.isEmpty else { return [] }
            let rows = try database.query("""
                SELECT \(Self.messageColumns) FROM messages m WHERE m.id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                """, ids.map(SQLiteValue.text))
            let byID = Dictionary(rows.compactMap(Self.message(from:)).map { ($0.message.id.uuidString, $0) }, uniquingKeysWith: { first, _ in first })
            return try Self.withAttachments(ids.compactMap { byID[$0] }, database: database)
        }
    }

    /// The last message of the branch through `message`, going down as `branch(after:)` does.
    public func leaf(from message: UUID, in chat: UUID) throws -> UUID {
        try run { database in
            var current = message.uuidString
            // A message met again is a loop in a damaged file: the walk ends there.
            var seen: Set<String> = [current]
            while let next = try Self.chosenChild(of: current, in: chat, database: database), seen.insert(next).inserted {
                current = next
            }
            return UUID(uuidString: current) ?? message
        }
    }

    private static func chosenChild(of parent: String, in chat: UUID, database: SQLiteDatabase) throws -> String? {
        try database.query("""
            SELECT c.id FROM messages c WHERE c.chat_id = ? AND c.parent_id = ? AND c.deleted_at IS NULL
            ORDER BY c.id = (SELECT active_child FROM messages WHERE id = ?) DESC, c.seq DESC LIMIT 1
            """, [.text(chat.uuidString), .text(parent), .text(parent)]).first?.first?.text
    }

    /// The last message of the branch `chat` shows: the one it remembers (followed down, should
    /// messages have been added below it elsewhere), else the newest; nil without messages.
    public func currentLeaf(of chat: UUID) throws -> UUID? {
        let remembered = try run { database in
            try database.query("""
                SELECT m.id FROM chats c JOIN messages m ON m.id = c.current_id WHERE c.id = ? AND m.deleted_at IS NULL
                """, [.text(chat.uuidString)]).first?.first?.text
        }
        let start = try remembered ?? run { database in
            try database.query("SELECT id FROM messages WHERE chat_id = ? AND deleted_at IS NULL ORDER BY seq DESC LIMIT 1",
                               [.text(chat.uuidString)]).first?.first?.text
        }
        guard let start = start.flatMap(UUID.init(uuidString:)) else { return nil }
        return try leaf(from: start, in: chat)
    }

    /// Whether `ancestor` is on the branch ending at `message` (itself included).
    public func isOnBranch(_ ancestor: UUID, endingAt message: UUID) throws -> Bool {
        try run { database in
            try !database.query("""
                WITH RECURSIVE up(id, depth) AS (
                    SELECT ?, 0
                    UNION ALL
                    SELECT m.parent_id, up.depth + 1 FROM messages m JOIN up ON m.id = up.id
                    WHERE m.parent_id IS NOT NULL AND up.depth < ?
                )
                SELECT 1 FROM up WHERE id = ? LIMIT 1
                """, [.text(message.uuidString), .integer(Int64(try Self.walkLimit(from: message.uuidString, database: database))),
                      .text(ancestor.uuidString)]).isEmpty
        }
    }

    /// The versions of each of `messages` (itself and its siblings, oldest first), for those
    /// that have more than one.
    public func versions(of messages: [ChatMessage], in chat: UUID) throws -> [UUID: [UUID]] {
        guard !messages.isEmpty else { return [:] }
        let parents = Set(messages.compactMap(\.parentID))
        let hasRoot = messages.contains { $0.parentID == nil }
        // By the parent index, one query per 500 parents and one for the roots; sorted here,
        // as ORDER BY seq would make SQLite walk the chat's every message in seq order.
        let rows = try run { database in
            var rows: [[SQLiteValue]] = []
            let all = Array(parents)
            for start in stride(from: 0, to: all.count, by: 500) {
                let ids = all[start..<min(start + 500, all.count)].map { SQLiteValue.text($0.uuidString) }
                rows += try database.query("""
                    SELECT parent_id, id, seq FROM messages
                    WHERE chat_id = ? AND deleted_at IS NULL AND parent_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                    """, [.text(chat.uuidString)] + ids)
            }
            if hasRoot {
                rows += try database.query("""
                    SELECT parent_id, id, seq FROM messages WHERE chat_id = ? AND deleted_at IS NULL AND parent_id IS NULL
                    """, [.text(chat.uuidString)])
            }
            return rows.sorted { ($0[2].integer ?? 0) < ($1[2].integer ?? 0) }
        }
        var children: [String: [UUID]] = [:]
        for row in rows {
            guard let id = row[1].text.flatMap(UUID.init(uuidString:)) else { continue }
            children[row[0].text ?? "", default: []].append(id)
        }
        var versions: [UUID: [UUID]] = [:]
        for message in messages {
            guard let siblings = children[message.parentID?.uuidString ?? ""], siblings.count > 1 else { continue }
            versions[message.id] = siblings
        }
        return versions
    }

    /// Remembers `message` as the last of the branch `chat` shows.
    public func setCurrent(_ chat: UUID, _ message: UUID?) throws {
        try run { try $0.query("UPDATE chats SET current_id = ? WHERE id = ?", [SQLiteValue(message?.uuidString), .text(chat.uuidString)]) }
    }

    /// Remembers `version` as the one chosen among its siblings, for going down through its parent.
    public func choose(version: UUID, under parent: UUID) throws {
        try run { try $0.query("UPDATE messages SET active_child = ? WHERE id = ?", [.text(version.uuidString), .text(parent.uuidString)]) }
    }

    /// Remembers every message of the branch ending at `last` as the version chosen below its
    /// parent, so that going down from any of them (a search hit above a fork) follows it.
    public func chooseBranch(endingAt last: UUID) throws {
        try run { database in
            try database.query("""
                WITH RECURSIVE up(id, parent, depth) AS (
                    SELECT id, parent_id, 0 FROM messages WHERE id = ?
                    UNION ALL
                    SELECT m.id, m.parent_id, up.depth + 1 FROM messages m JOIN up ON m.id = up.parent WHERE up.depth < ?
                )
                UPDATE messages SET active_child = up.id FROM up
                WHERE messages.id = up.parent AND messages.active_child IS NOT up.id
                """, [.text(last.uuidString), .integer(Int64(try Self.walkLimit(from: last.uuidString, database: database)))])
        }
    }

    /// Hides `message` and every message after it in any branch, at `date`; `restoreBranch`
    /// brings them back until the store is next opened. Messages hidden already keep when
    /// they were, so that undoing this brings back only what this hid: its mark is later than
    /// any other in the chat, even for deletes in the same instant or after the clock went back.
    public func deleteBranch(_ message: UUID, in chat: UUID, at date: Date = Date()) throws {
        try inTransaction { database in
            let latest = try database.query("SELECT max(deleted_at) FROM messages WHERE chat_id = ?", [.text(chat.uuidString)])
                .first?.first?.real
            var mark = date.timeIntervalSince1970
            if let latest, latest >= mark { mark = latest.nextUp }
            try database.query("""
                WITH RECURSIVE \(Self.below)
                UPDATE messages SET deleted_at = ?3 WHERE id IN below AND deleted_at IS NULL
                """, [.text(message.uuidString), .text(chat.uuidString), .real(mark)])
        }
    }

    /// Brings back what `deleteBranch(message)` hid: the messages hidden with it, not those
    /// below it hidden before (another version deleted, an attempt sent again).
    public func restoreBranch(_ message: UUID, in chat: UUID) throws {
        try run { database in
            try database.query("""
                WITH RECURSIVE \(Self.below)
                UPDATE messages SET deleted_at = NULL
                WHERE id IN below AND deleted_at = (SELECT deleted_at FROM messages WHERE id = ?1)
                """, [.text(message.uuidString), .text(chat.uuidString)])
        }
    }

    /// `below(id)`: message ?1 and every message after it in chat ?2, in any branch.
    private static let below = """
        below(id) AS (
            SELECT ?1
            UNION
            SELECT m.id FROM messages m JOIN below ON m.chat_id = ?2 AND m.parent_id = below.id
        )
        """
}
