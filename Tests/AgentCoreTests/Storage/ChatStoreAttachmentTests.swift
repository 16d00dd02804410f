import AgentCore
import Foundation
import Testing
import TestSupport

/// Attached files kept with their chat: once per content, back after a restart, in the JSON
/// export and named in the Markdown one, and found by search.
@Suite("Attachments in the chat store")
struct ChatStoreAttachmentTests {
    let notes: AttachedFile
    let picture = AttachedFile(name: "dot.png", mediaType: "image/png", byteCount: 70,
                             data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]), text: nil)

    init() throws {
        notes = try AttachedFile.make(name: "notes.txt", data: Data("The launch code is pelican-42.\n".utf8))
    }

    /// Rows in `table` of the database at `file`, counted by Python's own SQLite.
    func count(_ table: String, in file: URL) throws -> Int {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/python3")
        process.arguments = ["-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM \(table)').fetchone()[0])",
                             file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("Sent twice, stored once; back with the chat after a restart; dropped when no message keeps it")
    func keptOnce() throws {
        let file = temporaryDatabase()
        var store: ChatStore? = try ChatStore(file: file)
        let chat = try #require(try store?.createChat(ChatSummary(title: "Files")))
        let first = ChatMessage(role: .user, text: "Read this", state: .done, attachments: [notes, picture])
        let second = ChatMessage(parentID: first.id, role: .user, text: "And again", state: .done, attachments: [notes])
        try store?.save(first, in: chat.id, seq: 0)
        try store?.save(first, in: chat.id, seq: 0)
        try store?.saveAll([second], in: chat.id, firstSeq: 1)
        #expect(try count("attachment_contents", in: file) == 2)
        #expect(try count("message_attachments", in: file) == 3)

        store = nil
        var reopened: ChatStore? = try ChatStore(file: file)
        let messages = try #require(try reopened?.messages(in: chat.id)).map(\.message)
        #expect(messages.map(\.id) == [first.id, second.id])
        #expect(messages.map(\.attachments) == [first.attachments, second.attachments], "names, sizes, bytes and text, in order")
        #expect(try reopened?.branch(endingAt: second.id, limit: 1, including: false).first?.message.attachments == [notes, picture])

        try reopened?.deleteMessage(second.id)
        try reopened?.deleteMessage(first.id)
        reopened = nil
        _ = try ChatStore(file: file)
        #expect(try count("attachment_contents", in: file) == 0, "nothing left that no message uses")
    }

    @Test("JSON export carries the files (base64) and imports them back; Markdown names them")
    func exported() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "Exported"))
        let message = ChatMessage(role: .user, text: "See attached", state: .done, attachments: [notes, picture])
        try store.save(message, in: chat.id, seq: 0)
        let archive = try #require(try store.archive(chat.id))
        let json = ChatArchive.json([archive])
        #expect(json.contains(picture.data.base64EncodedString()))
        #expect(ChatArchive.markdown(archive).contains("> Attached: notes.txt (31 bytes), dot.png (70 bytes)"))

        let other = try ChatStore(file: temporaryDatabase())
        let imported = try other.importChats(ChatArchive.parse(json))
        #expect(try other.messages(in: imported[0].id).first?.message.attachments == [notes, picture])
        // Imported again into the same store: a copy with new ids, the files with it.
        let copy = try store.importChats(ChatArchive.parse(json))
        #expect(try copy[0].id != chat.id && (try store.messages(in: copy[0].id).first?.message.attachments) == [notes, picture])

        let forged = json.replacingOccurrences(of: picture.data.base64EncodedString(), with: "not base64!")
        #expect(throws: ChatArchive.FormatError.self) { try other.importChats(ChatArchive.parse(forged)) }
    }

    @Test("Search finds a chat by what its attached file said, the word marked")
    func searchedByFileText() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "Quarterly things"))
        let message = ChatMessage(role: .user, text: "Summarize please", state: .done, attachments: [notes])
        try store.save(message, in: chat.id, seq: 0)
        let hits = try store.search("pelican")
        #expect(hits.map(\.chatID) == [chat.id] && hits.first?.messageID == message.id)
        #expect(hits.first?.snippet.hasPrefix("notes.txt: ") == true && hits.first?.snippet.contains("pelican") == true)
        #expect(hits.first?.matchedWords == ["pelican"], "the word marked, not the file's name")
        #expect(try store.search("albatross").isEmpty)
    }
}
