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
    /// keeps what it had, marked cut off, and one with nothing in it is removed; a user
    /// message is delivered if something of a reply to it is kept, failed otherwise.
    private static func recoverInterrupted(_ database: SQLiteDatabase) throws {
        // Nothing to settle after a clean exit: no write at start-up.
        let unsettled = try database.query("SELECT 1 FROM messages WHERE state IN ('sending', 'streaming') LIMIT 1")
        guard !unsettled.isEmpty else { return }
        try database.transaction {
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
}
