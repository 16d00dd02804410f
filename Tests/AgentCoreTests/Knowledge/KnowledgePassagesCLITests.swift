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

    @Test("Under a context budget of 1000, passages take at most the default 40 %: as many as fit 400 tokens; a knowledge-share of 90 lets six through")
    func defaultShareOfASmallBudget() async throws {
        let folder = TemporaryFolder("agent-share")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // Twelve notes alike: each one passage, all as relevant, so only the budget decides how many go.
        for note in 10..<22 {
            let text = "Field note \(note): " + String(repeating: "The albatross glided over the grey southern sea without a beat of its wings. ", count: 5)
            _ = try folder.write("albatross-\(note).txt", Array(text.utf8))
        }
        let home = PrivateHome("agent-share-home")
        defer { home.remove() }
        func passages(settings: String) async throws -> [(source: String, text: String)] {
            try home.setSettings(settings)
            let result = try await ProductRunner.run("agent-cli", ["--knowledge", folder.url.path, "--passages", "How does the albatross glide?"],
                                                     environment: home.environment)
            #expect(result.status == 0, "\(result.stderr)")
            return Self.passages(in: result.stdout)
        }

        let shared = try await passages(settings: "context-budget=1000")
        let cost = KnowledgeIndex.estimatedTokens(try #require(shared.first).text)
        #expect(shared.allSatisfy { KnowledgeIndex.estimatedTokens($0.text) == cost }, "the notes cost the same")
        #expect(shared.count == 1000 * 40 / 100 / cost, "\(shared.count) passages of \(cost) tokens")
        #expect(shared.count < 6, "the share, not the most a question takes, is what binds")
        let wider = try await passages(settings: "context-budget=1000\nknowledge-share=90")
        #expect(wider.count == 6, "the setting says otherwise")
    }
}
