@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli --knowledge DIR --passages`: the passages found, printed under their sources
/// as the model would get them, and nothing sent.
@Suite("agent-cli --passages")
struct KnowledgePassagesCLITests {
    /// The passages `--passages` printed: the text under each "[n] FILE" line.
    static func passages(in output: String) -> [(source: String, text: String)] {
        var found: [(source: String, text: String)] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let header = line.firstMatch(of: /^\[\d+\] (.+)$/) {
                found.append((String(header.1), ""))
            } else if !found.isEmpty {
                found[found.count - 1].text += (found[found.count - 1].text.isEmpty ? "" : "\n") + line
            }
        }
        return found.map { ($0.source, $0.text.trimmingCharacters(in: .newlines)) }
    }

    @Test("--passages prints the passages that would go with the question, under their files, and sends nothing")
    func passagesArePrintedNotSent() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-passages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Far more about pelicans than a question can carry.
        for file in 0..<40 {
            let paragraphs = (0..<8).map { "Note \(file)-\($0): the pelican colony on island \(file) fished at dawn and rested by the shore in the afternoon." }
            try paragraphs.joined(separator: "\n\n").write(to: folder.appending(path: "pelicans-\(file).txt"), atomically: true, encoding: .utf8)
        }
        let server = TestServer.shared
        let marker = uniqueMarker()
        let home = AgentCLIChatTests.home()
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(marker)"), "--knowledge", folder.path,
                                                              "--passages", "Where does the pelican colony fish?"], environment: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try await server.requests(containing: marker).isEmpty, "nothing is sent")
        let passages = Self.passages(in: result.stdout)
        #expect(!passages.isEmpty && passages.allSatisfy { $0.source.hasPrefix(folder.path + "/pelicans-") && $0.text.contains("pelican") },
                "\(result.stdout.prefix(400))")
        #expect(result.stderr.contains("\(passages.count) passages found in "), "\(result.stderr)")

        let taken = passages.reduce(0) { $0 + KnowledgeIndex.estimatedTokens($1.text) }
        #expect(taken <= 4096 * 40 / 100, "within the share of the budget: \(taken) tokens")
    }
}
