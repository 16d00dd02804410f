import FoundationEssentials

/// Attached files in the chat database: each file's bytes once, under its digest
/// (`attachment_contents`), and each message's list of them (`message_attachments`).
extension ChatStore {
    /// Links `message`'s attachments to it, storing any content not stored yet; saving the
    /// same message again changes nothing.
    static func insertAttachments(of message: ChatMessage, into database: SQLiteDatabase) throws {
        for (position, file) in message.attachments.enumerated() {
            try database.query("INSERT OR IGNORE INTO attachment_contents (digest, media_type, data, text) VALUES (?, ?, ?, ?)",
                               [.text(file.digest), .text(file.mediaType), .blob(file.data), SQLiteValue(file.text)])
            try database.query("""
                INSERT OR IGNORE INTO message_attachments (message_id, position, name, byte_count, digest) VALUES (?, ?, ?, ?, ?)
                """, [.text(message.id.uuidString), .integer(Int64(position)), .text(file.name), .integer(Int64(file.byteCount)),
                      .text(file.digest)])
        }
    }

    /// `messages` with their attachments filled in, read in one query.
    static func withAttachments(_ messages: [StoredMessage], database: SQLiteDatabase) throws -> [StoredMessage] {
        guard !messages.isEmpty else { return messages }
        var rows: [[SQLiteValue]] = []
        // A page at a time: SQLite takes at most 32,766 parameters.
        for start in stride(from: 0, to: messages.count, by: 500) {
            let ids = messages[start..<min(start + 500, messages.count)].map { SQLiteValue.text($0.message.id.uuidString) }
            rows += try database.query("""
                SELECT ma.message_id, ma.name, ma.byte_count, ac.media_type, ac.data, ac.text, ac.digest
                FROM message_attachments ma JOIN attachment_contents ac ON ac.digest = ma.digest
                WHERE ma.message_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                ORDER BY ma.message_id, ma.position
                """, ids)
        }
        guard !rows.isEmpty else { return messages }
        var files: [String: [AttachedFile]] = [:]
        for row in rows {
            guard let id = row[0].text, let name = row[1].text, let mediaType = row[3].text, let digest = row[6].text else { continue }
            files[id, default: []].append(AttachedFile(name: name, mediaType: mediaType, byteCount: Int(row[2].integer ?? 0),
                                                     data: row[4].blob ?? Data(), text: row[5].text, digest: digest))
        }
        return messages.map { stored in
            var stored = stored
            stored.message.attachments = files[stored.message.id.uuidString] ?? []
            return stored
        }
    }

    /// Removes contents no message refers to any more (their messages or chats were
    /// deleted); writes nothing when there are none.
    static func dropUnusedAttachments(_ database: SQLiteDatabase) throws {
        let unused = "FROM attachment_contents WHERE NOT EXISTS (SELECT 1 FROM message_attachments ma WHERE ma.digest = attachment_contents.digest)"
        guard try !database.query("SELECT 1 \(unused) LIMIT 1").isEmpty else { return }
        try database.query("DELETE \(unused)")
    }

    /// Messages whose attached files' text contains every word of `query` (an FTS5 query).
    static func searchAttachments(_ query: String, limit: Int, database: SQLiteDatabase) throws -> [SearchHit] {
        try database.query("""
            SELECT m.chat_id, c.title, m.id, ma.name || ': ' || snippet(attachment_search, 0, ?, ?, '…', 12)
            FROM attachment_search JOIN attachment_contents ac ON ac.rowid = attachment_search.rowid
            JOIN message_attachments ma ON ma.digest = ac.digest JOIN messages m ON m.id = ma.message_id
            JOIN chats c ON c.id = m.chat_id
            WHERE attachment_search MATCH ? AND c.deleted_at IS NULL AND m.deleted_at IS NULL ORDER BY rank LIMIT ?
            """, SearchHit.marks + [.text(query), .integer(Int64(limit))]).compactMap { row -> SearchHit? in
            guard let chat = row[0].text.flatMap(UUID.init(uuidString:)), let title = row[1].text,
                  let message = row[2].text.flatMap(UUID.init(uuidString:)) else { return nil }
            return SearchHit(chatID: chat, chatTitle: title, messageID: message, marked: (row[3].text ?? "").onOneLine)
        }
    }
}
