/// The database's schema history. Each step moves a database from one version (SQLite's
/// `user_version`) to the next; a database of any earlier version is brought forward step
/// by step, each in its own transaction.
enum ChatStoreSchema {
    static let migrations: [String] = [
        // 1: chats and their messages.
        """
        CREATE TABLE chats (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            model TEXT,
            server_profile TEXT,
            system_prompt TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE messages (
            id TEXT PRIMARY KEY,
            chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            text TEXT NOT NULL,
            model TEXT,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            state TEXT NOT NULL,
            UNIQUE (chat_id, seq)
        );
        CREATE INDEX chats_by_update ON chats(updated DESC);
        """,
        // 2: tool calls and token counts on messages.
        """
        ALTER TABLE messages ADD COLUMN tool_calls TEXT;
        ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;
        ALTER TABLE messages ADD COLUMN completion_tokens INTEGER;
        ALTER TABLE messages ADD COLUMN generation_seconds REAL;
        """,
        // 3: full-text search over message text and chat titles (FTS5, external content).
        """
        CREATE VIRTUAL TABLE message_search USING fts5(text, content='messages', content_rowid='rowid');
        CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO message_search(rowid, text) VALUES (new.rowid, new.text);
        END;
        CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
            INSERT INTO message_search(message_search, rowid, text) VALUES ('delete', old.rowid, old.text);
        END;
        CREATE TRIGGER message_search_update AFTER UPDATE OF text ON messages BEGIN
            INSERT INTO message_search(message_search, rowid, text) VALUES ('delete', old.rowid, old.text);
            INSERT INTO message_search(rowid, text) VALUES (new.rowid, new.text);
        END;
        INSERT INTO message_search(message_search) VALUES ('rebuild');
        CREATE VIRTUAL TABLE chat_search USING fts5(title, content='chats', content_rowid='rowid');
        CREATE TRIGGER chat_search_insert AFTER INSERT ON chats BEGIN
            INSERT INTO chat_search(rowid, title) VALUES (new.rowid, new.title);
        END;
        CREATE TRIGGER chat_search_delete AFTER DELETE ON chats BEGIN
            INSERT INTO chat_search(chat_search, rowid, title) VALUES ('delete', old.rowid, old.title);
        END;
        CREATE TRIGGER chat_search_update AFTER UPDATE OF title ON chats BEGIN
            INSERT INTO chat_search(chat_search, rowid, title) VALUES ('delete', old.rowid, old.title);
            INSERT INTO chat_search(rowid, title) VALUES (new.rowid, new.title);
        END;
        INSERT INTO chat_search(chat_search) VALUES ('rebuild');
        """,
        // 4: deleting a chat keeps it (undo) until the next start.
        """
        ALTER TABLE chats ADD COLUMN deleted_at REAL;
        """,
        // 5: attached files, stored once by digest however often sent, their text searchable.
        """
        CREATE TABLE attachment_contents (
            digest TEXT PRIMARY KEY,
            media_type TEXT NOT NULL,
            data BLOB NOT NULL,
            text TEXT
        );
        CREATE TABLE message_attachments (
            message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            byte_count INTEGER NOT NULL,
            digest TEXT NOT NULL REFERENCES attachment_contents(digest),
            PRIMARY KEY (message_id, position)
        );
        CREATE INDEX message_attachments_by_digest ON message_attachments(digest);
        CREATE VIRTUAL TABLE attachment_search USING fts5(text, content='attachment_contents', content_rowid='rowid');
        CREATE TRIGGER attachment_search_insert AFTER INSERT ON attachment_contents WHEN new.text IS NOT NULL BEGIN
            INSERT INTO attachment_search(rowid, text) VALUES (new.rowid, new.text);
        END;
        CREATE TRIGGER attachment_search_delete AFTER DELETE ON attachment_contents WHEN old.text IS NOT NULL BEGIN
            INSERT INTO attachment_search(attachment_search, rowid, text) VALUES ('delete', old.rowid, old.text);
        END;
        """,
        // 6: the folders a chat asks about, and the sources a reply was given.
        """
        ALTER TABLE chats ADD COLUMN knowledge_folders TEXT;
        ALTER TABLE messages ADD COLUMN sources TEXT;
        """,
        // 7: what a reasoning model thought before its answer, and for how long.
        """
        ALTER TABLE messages ADD COLUMN reasoning TEXT;
        ALTER TABLE messages ADD COLUMN reasoning_seconds REAL;
        """,
        // 8: the model chosen for a chat in the header's menu (not the one that last answered),
        // and whether it is a server's or one the app runs itself.
        """
        ALTER TABLE chats ADD COLUMN chosen_model TEXT;
        ALTER TABLE chats ADD COLUMN chosen_model_place TEXT;
        """,
        // 9: a chat is a tree. Every message has a parent (the first ones none); a message with
        // siblings remembers the one chosen below it; a chat remembers the branch shown
        // (`current_id`: its last message) and its own settings and preset; a deleted branch is
        // kept (undo) until the next start. Existing chats become single branches in `seq` order.
        // Presets are named settings, three shipped.
        """
        ALTER TABLE messages ADD COLUMN parent_id TEXT;
        ALTER TABLE messages ADD COLUMN active_child TEXT;
        ALTER TABLE messages ADD COLUMN deleted_at REAL;
        UPDATE messages SET parent_id = (
            SELECT p.id FROM messages p WHERE p.chat_id = messages.chat_id AND p.seq < messages.seq ORDER BY p.seq DESC LIMIT 1);
        CREATE INDEX messages_by_parent ON messages(chat_id, parent_id);
        ALTER TABLE chats ADD COLUMN current_id TEXT;
        ALTER TABLE chats ADD COLUMN temperature REAL;
        ALTER TABLE chats ADD COLUMN max_tokens INTEGER;
        ALTER TABLE chats ADD COLUMN tools_enabled INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE chats ADD COLUMN preset TEXT;
        UPDATE chats SET current_id = (SELECT m.id FROM messages m WHERE m.chat_id = chats.id ORDER BY m.seq DESC LIMIT 1);
        CREATE TABLE presets (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            system_prompt TEXT,
            model TEXT,
            model_place TEXT,
            temperature REAL,
            max_tokens INTEGER,
            tools_enabled INTEGER NOT NULL DEFAULT 1,
            position INTEGER NOT NULL,
            last_used REAL
        );
        INSERT INTO presets (id, name, system_prompt, temperature, tools_enabled, position) VALUES
            ('6A0E1F0B-5C43-4B8E-9D0E-2F1C7A1B0001', 'Plain Assistant', NULL, NULL, 1, 0),
            ('6A0E1F0B-5C43-4B8E-9D0E-2F1C7A1B0002', 'Terse Code Reviewer',
             'You review code. Point out bugs, risks and unclear names first, then style, in short bullet points. '
             || 'Quote the lines you mean. Say nothing about what is fine. No preamble, no summary.', 0.2, 0, 1),
            ('6A0E1F0B-5C43-4B8E-9D0E-2F1C7A1B0003', 'Translator',
             'You translate. Reply with the translation of the user''s text alone: into English, or into the language '
             || 'they name. Keep the meaning, tone and formatting (Markdown, code, line breaks). Never answer the text itself.',
             0.3, 0, 2);
        """,
        // 10: where Agent's own words (a server's error) sit in a reply's text, so they are
        // never sent back to the model as its words: `[[start, end], …]` in UTF-8 offsets.
        """
        ALTER TABLE messages ADD COLUMN notices TEXT;
        """,
    ]

    static var latestVersion: Int { migrations.count }

    static func version(of database: SQLiteDatabase) throws -> Int {
        Int(try database.query("PRAGMA user_version").first?.first?.integer ?? 0)
    }

    /// The version of `database`, refused when it is newer than this build knows, rather
    /// than guessed at.
    private static func readableVersion(of database: SQLiteDatabase) throws -> Int {
        let current = try version(of: database)
        guard current <= latestVersion else {
            // TRANSLATORS: %1$s and %2$s are version numbers of the chat database's layout.
            throw SQLiteError(code: 0, message: tr("the chat database is version %1$s, newer than this Agent (%2$s) can read",
                                                   String(current), String(latestVersion)))
        }
        return current
    }

    /// Brings `database` to `target` (the latest by default). Refuses a database newer than
    /// this build knows, rather than guess.
    static func migrate(_ database: SQLiteDatabase, to target: Int = latestVersion) throws {
        try migrate(database, from: try readableVersion(of: database), to: target)
    }

    /// Runs the steps from version `current` (read before) to `target`, each in a transaction
    /// of its own. A step another process ran meanwhile (two opening an old database at once)
    /// is skipped, and a newer Agent's migration refused: the version is read again inside the
    /// transaction, which holds the lock.
    static func migrate(_ database: SQLiteDatabase, from current: Int, to target: Int) throws {
        for step in current..<max(current, target) {
            try database.transaction {
                guard try readableVersion(of: database) == step else { return }
                try database.execute(migrations[step])
                try database.execute("PRAGMA user_version = \(step + 1)")
            }
        }
    }
}
