import AgentCore
import Foundation
import TestSupport
import Testing

/// Knowledge folders at a real size: 1,000 generated notes (about 100 MB) indexed in
/// SQLite FTS5, one fact asked about, files changed and deleted; a PDF's page named.
@Suite("Knowledge folders", .serialized)
struct KnowledgeIndexTests {
    func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appending(path: "agent-\(name)-\(UUID().uuidString)")
    }

    @Test("1,000 files, 100 MB: the fact's passage comes from its file alone; a change is indexed again, a deleted file leaves")
    func largeFolder() throws {
        let folder = temporary("knowledge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let factFile = try KnowledgeFolder.make(folder)
        let index = try KnowledgeIndex(file: temporary("index").appending(path: "knowledge.sqlite"))
        var reports: [(Int, Int)] = []
        let first = try index.update(folder) { reports.append(($0, $1)) }
        #expect(first.indexed == 1000 && first.unchanged == 0 && first.removed == 0 && first.skipped == 0)
        #expect(reports.last.map { $0 == (1000, 1000) } == true && reports.count > 10, "progress as it went")

        let passages = try index.passages(for: "What did the lighthouse keeper name his tortoise?", in: [folder], tokenBudget: 2000)
        #expect(!passages.isEmpty && passages.allSatisfy { $0.source.path == factFile.path }, "\(passages.map(\.source.path))")
        #expect(passages.first?.text.contains("named his tortoise Pemberton") == true)
        #expect(try index.passages(for: "xyzzy plugh frobnicate?", in: [folder], tokenBudget: 2000).isEmpty, "nothing matches, nothing sent")
        #expect(try index.passages(for: "lighthouse tortoise", in: [temporary("elsewhere")], tokenBudget: 2000).isEmpty,
                "only the chat's folders")

        // Changed: the fact moves to another file; the old one is rewritten without it.
        let other = folder.appending(path: "area-0/note-0000.txt")
        try Data("# Moved\n\nThe lighthouse keeper named his tortoise Archibald after all.\n".utf8).write(to: other)
        try Data("# Note 417\n\nNothing about animals here.\n".utf8).write(to: factFile)
        let second = try index.update(folder)
        #expect(second.indexed == 2 && second.unchanged == 998 && second.removed == 0)
        let moved = try index.passages(for: "What did the lighthouse keeper name his tortoise?", in: [folder], tokenBudget: 2000)
        #expect(moved.map(\.source.path) == [other.path] && moved.first?.text.contains("Archibald") == true)

        try FileManager.default.removeItem(at: other)
        let third = try index.update(folder)
        #expect(third.removed == 1 && third.unchanged == 999)
        #expect(try index.passages(for: "Archibald", in: [folder], tokenBudget: 2000).isEmpty)
    }

    @Test("A PDF's passages name their page; a small budget takes fewer passages; images, programs and files too large are left out")
    func pagesAndBudget() throws {
        // A folder whose name is not ASCII: paths compare as text, byte for byte.
        let folder = temporary("Notizen-für-März")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var svgs: [String] = []
        for (page, text) in ["Quarterly summary, nothing special.", "The vault combination is 31-17-42."].enumerated() {
            let svg = folder.appending(path: ".page\(page).svg")
            try #"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="40" font-size="16">\#(text)</text></svg>"#
                .write(to: svg, atomically: true, encoding: .utf8)
            svgs.append(svg.path)
        }
        let convert = Process()
        convert.executableURL = URL(filePath: "/usr/bin/rsvg-convert")
        convert.arguments = ["-f", "pdf", "-o", folder.appending(path: "report.pdf").path] + svgs
        try convert.run()
        convert.waitUntilExit()
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: folder.appending(path: "vault.png"))
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: folder.appending(path: "vault-tool").path)
        // Text, but past the largest file Agent reads.
        try Data(String(repeating: "vault log ", count: AttachedFile.maximumBytes / 10 + 1).utf8).write(to: folder.appending(path: "vault.log"))
        for number in 0..<5 {
            try Data(String(repeating: "vault door notes number \(number) ", count: 60).utf8).write(to: folder.appending(path: "door-\(number).txt"))
        }

        let index = try KnowledgeIndex(file: temporary("index").appending(path: "knowledge.sqlite"))
        let update = try index.update(folder)
        #expect(update.indexed == 6 && update.skipped == 3, "\(update)")
        let combination = try index.passages(for: "What is the vault combination?", in: [folder], tokenBudget: 2000)
        #expect(combination.first?.source == KnowledgeSource(path: folder.appending(path: "report.pdf").path, page: 2))
        #expect(combination.first?.source.label == "report.pdf, page 2")
        let doors = try index.passages(for: "vault door notes", in: [folder], tokenBudget: 2000)
        let fewer = try index.passages(for: "vault door notes", in: [folder], tokenBudget: 400)
        #expect(doors.count > fewer.count && !fewer.isEmpty)
    }

    @Test("A file that says it is empty and never ends (/proc/self/pagemap) is left out at once; /proc/self is indexed",
          .timeLimit(.minutes(1)))
    func fileWithoutEnd() throws {
        var info = stat()
        #expect(stat("/proc/self/pagemap", &info) == 0 && info.st_size == 0, "the file this test is about")
        let index = try KnowledgeIndex(file: temporary("index").appending(path: "knowledge.sqlite"))
        let update = try index.update(URL(filePath: "/proc/self"))
        #expect(update.indexed > 0, "\(update)")
        #expect(update.skipped > 0, "pagemap among the files left out: \(update)")
    }
}

/// `agent-cli --knowledge`: the passage in the request, its source on stderr; a folder that
/// is not there stops it before any request.
@Suite("agent-cli --knowledge")
struct KnowledgeCLITests {
    @Test("The passage goes with the question, its file is named on stderr; a second run reads only what changed")
    func cli() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-cli-knowledge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let factFile = try KnowledgeFolder.make(folder, count: 40, size: 20_000)
        let server = TestServer.shared
        let marker = uniqueMarker()
        let asked = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(marker)"), "--knowledge", folder.path,
                                                             "What did the lighthouse keeper name his tortoise?"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("sources: \(factFile.path)\n"), "\(asked.stderr)")
        #expect(asked.stderr.contains("40 files indexed, 0 unchanged"))
        let body = try #require(try await server.requests(containing: marker).first?["body"] as? [String: Any])
        let sent = try #require((body["messages"] as? [[String: Any]])?.last?["content"] as? String)
        #expect(sent.hasPrefix("Passages from the user's files") && sent.contains("[1] \(factFile.path)\n"))
        #expect(sent.contains("named his tortoise Pemberton") && sent.hasSuffix("Question: What did the lighthouse keeper name his tortoise?"))

        let again = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--knowledge", folder.path, "xyzzy plugh"])
        #expect(again.status == 0 && again.stderr.contains("0 files indexed, 40 unchanged") && !again.stderr.contains("sources:"))

        let missing = uniqueMarker()
        let refused = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(missing)"), "--knowledge", "/nonexistent/notes", "hi"])
        #expect(refused.status == 2 && refused.stderr.contains("“/nonexistent/notes”: it is not a folder"))
        #expect(try await server.requests(containing: missing).isEmpty)
    }
}
