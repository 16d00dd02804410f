import Glibc
import FoundationEssentials
import Synchronization

/// The index of the folders chats ask about (`knowledge.sqlite` in the app's data folder,
/// apart from the chats, so a large index costs nothing at start-up): each file's passages
/// in SQLite FTS5, kept up to date by mtime and size, searched with BM25.
public final class KnowledgeIndex: Sendable {
    public let file: URL
    private let database: Mutex<SQLiteDatabase>

    public static var defaultFile: URL { AppIdentity.dataDirectory.appending(path: "knowledge.sqlite") }

    /// What an update found.
    public struct Update: Sendable, Equatable {
        public var indexed = 0
        public var unchanged = 0
        public var removed = 0
        /// Files left out: not text, code, Markdown or PDF, too large, or unreadable.
        public var skipped = 0
    }

    public init(file: URL = KnowledgeIndex.defaultFile) throws {
        self.file = file
        try PrivateFiles.prepareFile(file)
        let database = try SQLiteDatabase(path: file.path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
        if try database.query("PRAGMA user_version").first?.first?.integer ?? 0 == 0 {
            try database.transaction {
                try database.execute("""
                    CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime REAL NOT NULL, size INTEGER NOT NULL);
                    CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
                                         page INTEGER, text TEXT NOT NULL);
                    CREATE INDEX chunks_by_file ON chunks(file_id);
                    CREATE VIRTUAL TABLE chunk_search USING fts5(text, content='chunks', content_rowid='id', tokenize='porter unicode61');
                    CREATE TRIGGER chunk_search_insert AFTER INSERT ON chunks BEGIN
                        INSERT INTO chunk_search(rowid, text) VALUES (new.id, new.text);
                    END;
                    CREATE TRIGGER chunk_search_delete AFTER DELETE ON chunks BEGIN
                        INSERT INTO chunk_search(chunk_search, rowid, text) VALUES ('delete', old.id, old.text);
                    END;
                    PRAGMA user_version = 1;
                    """)
            }
        }
        self.database = Mutex(database)
    }

    /// Brings `folder`'s part of the index up to date: new and changed files (by mtime and
    /// size) read again, vanished ones dropped. `progress` hears (files looked at, files in
    /// all) as it goes; a cancelled task stops between batches, keeping what was done.
    @discardableResult
    public func update(_ folder: URL, progress: (Int, Int) -> Void = { _, _ in }) throws -> Update {
        let root = folder.standardizedFileURL.path
        var info = stat()
        // A folder that is gone (or not mounted) keeps its index: it is not "every file deleted".
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FolderMissing(path: root)
        }
        let found = Self.files(in: root)
        let known = try database.withLock { database in
            try database.query("SELECT path, mtime, size FROM files WHERE path >= ? AND path < ?", Self.range(under: root))
        }
        var stored: [String: (mtime: Double, size: Int)] = [:]
        for row in known {
            if let path = row[0].text { stored[path] = (row[1].real ?? 0, Int(row[2].integer ?? 0)) }
        }
        var summary = Update()
        let gone = Set(stored.keys).subtracting(found.map(\.path))
        if !gone.isEmpty {
            try database.withLock { database in
                try database.transaction {
                    for path in gone { try database.query("DELETE FROM files WHERE path = ?", [.text(path)]) }
                }
            }
            summary.removed = gone.count
        }
        // Written a batch at a time: up to 32 files, or fewer when they hold more than 8 MB.
        var index = 0
        while index < found.count {
            try Task.checkCancellation()
            var read: [(path: String, mtime: Double, size: Int, chunks: [(page: Int?, text: String)]?)] = []
            var bytes = 0
            let start = index
            while index < found.count, index - start < 32, bytes < 8 << 20 {
                let file = found[index]
                index += 1
                if let old = stored[file.path], old.mtime == file.mtime, old.size == file.size {
                    summary.unchanged += 1
                    continue
                }
                bytes += file.size
                read.append((file.path, file.mtime, file.size, KnowledgeFileReader.chunks(of: URL(filePath: file.path), size: file.size)))
            }
            try database.withLock { database in
                try database.transaction {
                    for file in read {
                        try database.query("DELETE FROM files WHERE path = ?", [.text(file.path)])
                        // A skipped file is remembered too (no chunks), so it is not read again unchanged.
                        try database.query("INSERT INTO files (path, mtime, size) VALUES (?, ?, ?)",
                                           [.text(file.path), .real(file.mtime), .integer(Int64(file.size))])
                        let id = try database.query("SELECT last_insert_rowid()").first?.first ?? .null
                        for chunk in file.chunks ?? [] {
                            try database.query("INSERT INTO chunks (file_id, page, text) VALUES (?, ?, ?)",
                                               [id, SQLiteValue(chunk.page), .text(chunk.text)])
                        }
                    }
                }
            }
            summary.indexed += read.count { $0.chunks != nil }
            summary.skipped += read.count { $0.chunks == nil }
            progress(index, found.count)
        }
        return summary
    }

    /// The passages that best answer `question` among the files of `folders`: ranked by
    /// BM25, those at least half as relevant as the best, as many as fit `tokenBudget`
    /// (at most `limit`). Words found in a fifth of all passages or more are left out of
    /// the search: BM25 gives them almost no weight, and ranking every passage that has
    /// one is what would make a search slow. None when nothing specific matches.
    public func passages(for question: String, in folders: [URL], tokenBudget: Int, limit: Int = 6) throws -> [KnowledgePassage] {
        guard !folders.isEmpty, let match = KnowledgeQuery.match(try distinctive(KnowledgeQuery.terms(of: question))) else { return [] }
        let within = folders.map { _ in "(f.path >= ? AND f.path < ?)" }.joined(separator: " OR ")
        var values: [SQLiteValue] = [.text(match)]
        for folder in folders { values += Self.range(under: folder.standardizedFileURL.path) }
        values.append(.integer(Int64(limit * 4)))
        let rows = try database.withLock { database in
            try database.query("""
                SELECT f.path, c.page, c.text, bm25(chunk_search) AS score
                FROM chunk_search JOIN chunks c ON c.id = chunk_search.rowid JOIN files f ON f.id = c.file_id
                WHERE chunk_search MATCH ? AND (\(within)) ORDER BY score LIMIT ?
                """, values)
        }
        guard let best = rows.first?[3].real else { return [] }
        var passages: [KnowledgePassage] = []
        var used = 0
        for row in rows {
            guard let path = row[0].text, let text = row[2].text, let score = row[3].real, score <= best / 2 else { continue }
            let cost = Self.estimatedTokens(text)
            guard used + cost <= tokenBudget, passages.count < limit else { break }
            used += cost
            passages.append(KnowledgePassage(source: KnowledgeSource(path: path, page: row[1].integer.map(Int.init)), text: text))
        }
        return passages
    }

    /// What a passage costs a request, in estimated tokens: its text and its label.
    static func estimatedTokens(_ text: String) -> Int {
        (text.utf8.count + 3) / 4 + 16
    }

    /// A folder that is not there (moved, deleted, or on a disk not mounted).
    public struct FolderMissing: Error, LocalizedError {
        public let path: String
        public var errorDescription: String? { tr("the folder %s is not there", path) }
    }

    /// The paths under `root`, as a range of text: from "root/" up to "root0" ("0" follows "/").
    private static func range(under root: String) -> [SQLiteValue] {
        [.text(root + "/"), .text(root + "0")]
    }

    /// The terms found in fewer than a fifth of the passages (each counted only that far).
    private func distinctive(_ terms: [String]) throws -> [String] {
        guard !terms.isEmpty else { return [] }
        return try database.withLock { database in
            let passages = Int(try database.query("SELECT count(*) FROM chunks").first?.first?.integer ?? 0)
            let common = max(50, passages / 5)
            return try terms.filter { term in
                let found = try database.query("SELECT count(*) FROM (SELECT 1 FROM chunk_search WHERE chunk_search MATCH ? LIMIT ?)",
                                               [.text(term), .integer(Int64(common))])
                return Int(found.first?.first?.integer ?? 0) < common
            }
        }
    }

    /// The regular files under `root`, hidden ones and hidden folders left out, with
    /// their modification time and size; symbolic links are not followed.
    static func files(in root: String) -> [(path: String, mtime: Double, size: Int)] {
        var result: [(path: String, mtime: Double, size: Int)] = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG:
                    let mtime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                    result.append((path, mtime, Int(info.st_size)))
                default: break
                }
            }
        }
        return result
    }
}
