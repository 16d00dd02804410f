import FoundationEssentials

/// What a process that opens the store alone settles at start-up (`ChatStore.init`).
extension ChatStore {
    /// What a process that has the store to itself settles at start-up: replies a crash left
    /// streaming, what was deleted with an undo offered, files no message uses any more.
    static func tidy(_ database: SQLiteDatabase) throws {
        try recoverInterrupted(database)
        if try !database.query("SELECT 1 FROM chats WHERE deleted_at IS NOT NULL LIMIT 1").isEmpty {
            try database.query("DELETE FROM chats WHERE deleted_at IS NOT NULL")
        }
        if try !database.query("SELECT 1 FROM messages WHERE deleted_at IS NOT NULL LIMIT 1").isEmpty {
            try database.query("DELETE FROM messages WHERE deleted_at IS NOT NULL")
        }
        try dropUnusedAttachments(database)
    }

    /// After a crash, as `ReplyLifecycle` settles a failed turn: a reply that was streaming
    /// keeps what it had, marked cut off, and one with nothing in it (or only the server's
    /// error) is removed; a user message is delivered if something of a reply to it is kept,
    /// failed otherwise.
    private static func recoverInterrupted(_ database: SQLiteDatabase) throws {
        // Nothing to settle after a clean exit: no write at start-up.
        let unsettled = try database.query("SELECT 1 FROM messages WHERE state IN ('sending', 'streaming') LIMIT 1")
        guard !unsettled.isEmpty else { return }
        try database.transaction {
            try emptyNoticeOnlyReplies(database)
            // A question whose only reply came to nothing: nothing of it got through.
            try database.query("""
                UPDATE messages SET state = 'failed' WHERE role = 'user' AND state = 'done'
                AND EXISTS (SELECT 1 FROM messages reply WHERE reply.parent_id = messages.id AND reply.role = 'assistant'
                    AND reply.state IN ('sending', 'streaming') AND reply.text = '' AND reply.tool_calls IS NULL AND reply.reasoning IS NULL)
                AND NOT EXISTS (SELECT 1 FROM messages reply WHERE reply.parent_id = messages.id AND reply.role = 'assistant'
                    AND (reply.state NOT IN ('sending', 'streaming') OR reply.text <> '' OR reply.tool_calls IS NOT NULL
                         OR reply.reasoning IS NOT NULL))
                """)
            try database.query("DELETE FROM messages WHERE role = 'assistant' AND state IN ('sending', 'streaming') AND text = '' AND tool_calls IS NULL AND reasoning IS NULL")
            try database.query("UPDATE messages SET state = 'cutOff' WHERE role = 'assistant' AND state IN ('sending', 'streaming')")
            try database.query("""
                UPDATE messages SET state = 'done' WHERE role = 'user' AND state = 'sending' AND EXISTS (
                    SELECT 1 FROM messages reply WHERE reply.chat_id = messages.chat_id AND reply.parent_id = messages.id
                    AND reply.role = 'assistant')
                """)
            try database.query("UPDATE messages SET state = 'failed' WHERE role = 'user' AND state = 'sending'")
        }
    }

    /// Empties the unsettled replies that hold nothing but Agent's notices (a server's error
    /// came before any word), so that they are settled as replies that came to nothing.
    private static func emptyNoticeOnlyReplies(_ database: SQLiteDatabase) throws {
        let rows = try database.query("""
            SELECT id, text, notices FROM messages WHERE role = 'assistant' AND state IN ('sending', 'streaming')
            AND notices IS NOT NULL AND tool_calls IS NULL AND reasoning IS NULL
            """)
        for row in rows {
            guard let id = row[0].text, let text = row[1].text else { continue }
            let reply = ChatMessage(role: .assistant, text: text, state: .streaming,
                                    notices: ChatMessage.notices(fromJSONText: row[2].text, in: text))
            guard reply.modelText.isEmpty else { continue }
            try database.query("UPDATE messages SET text = '', notices = NULL WHERE id = ?", [.text(id)])
        }
    }
}
