import AgentCore
import Foundation
import Testing
import TestSupport

/// An MCP server's log file, written by a real process.
@Suite("MCP server log")
struct MCPServerLogTests {
    /// stderr goes to the log as it is; each line on stdout that is not JSON gets a note of its own.
    @Test("A server that floods its log: the file stays under 1 MB, keeps the newest whole lines and how the server ended",
          arguments: [(">&2", ""), ("", "agent: skipped a line on stdout that is not JSON: ")])
    func staysBounded(redirect: String, logged: String) async throws {
        let folder = TemporaryFolder("agent-mcp-log")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let log = MCPServerLog(serverName: "noisy", directory: folder.url)
        // About 3 MB of one error over and over, as a server stuck retrying writes it, then its last words.
        let error = "error: cannot reach the database, retrying"
        let script = """
            echo 'first words' \(redirect)
            yes '\(error)' | head -n 70000 \(redirect)
            echo 'last words: giving up' \(redirect)
            exit 3
            """
        let config = MCPServerConfig(name: "noisy", transport: .stdio(command: "/bin/sh", arguments: ["-c", script],
                                                                       environment: [], workingDirectory: nil))
        let server = MCPServer(config: config, log: log, approveLaunch: { _ in true })
        await server.start()
        let ended = "agent: the server exited with status 3\n"
        #expect(try await TestTiming.eventually { ((try? String(contentsOf: log.file, encoding: .utf8)) ?? "").hasSuffix(ended) },
                "the server's end is logged")
        await server.stop()
        let text = try String(contentsOf: log.file, encoding: .utf8)
        #expect(text.utf8.count <= 1 << 20, "\(text.utf8.count) bytes")
        #expect(text.utf8.count >= 1 << 18, "the newest part is kept, not all of it dropped")
        #expect(text.hasPrefix("agent: older lines were left out to keep this log under 1 MB\n"), "\(text.prefix(200))")
        #expect(!text.contains("first words"))
        #expect(text.hasSuffix("\(logged)\(error)\n\(logged)last words: giving up\n" + ended), "\(text.suffix(300))")
        let lines = text.split(separator: "\n").dropFirst().dropLast(2)
        #expect(lines.allSatisfy { $0 == logged + error }, "whole lines only: \(lines.first { $0 != logged + error } ?? "")")
    }

    @Test("Two writers of one server's log (the window and agent-cli each have it open): every line whole, the note first, none lost but the oldest")
    func twoWritersShareTheLog() async throws {
        let folder = TemporaryFolder("agent-mcp-log")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // Two logs on one file hold two descriptors, as two processes do.
        let logs = [MCPServerLog(serverName: "shared", directory: folder.url), MCPServerLog(serverName: "shared", directory: folder.url)]
        let lines = 60_000
        await withTaskGroup(of: Void.self) { group in
            for (writer, log) in logs.enumerated() {
                group.addTask {
                    for line in 0..<lines { log.note("writer \(writer) line \(line) " + String(repeating: "x", count: 40)) }
                }
            }
        }
        let text = try String(contentsOf: logs[0].file, encoding: .utf8)
        let note = "agent: older lines were left out to keep this log under 1 MB"
        let written = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(written.first == note[...], "\(text.prefix(200))")
        let notes = written.dropFirst().filter { !$0.hasPrefix("agent: writer ") }
        #expect(notes.isEmpty, "lines cut or mixed: \(notes.prefix(3))")
        // Each writer's lines that are left are its newest, in order, none missing after the
        // note. A writer that finished well before the other may have none left.
        let kept = (0..<2).map { writer in
            written.compactMap { line -> Int? in
                let words = line.split(separator: " ")
                return words.count > 4 && words[2] == "\(writer)" ? Int(words[4]) : nil
            }
        }
        for (writer, numbers) in kept.enumerated() {
            #expect(numbers.isEmpty || numbers.last == lines - 1, "writer \(writer): its last line kept")
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }, "writer \(writer): a line lost after the cut")
        }
        #expect(kept.contains { !$0.isEmpty })
    }
}
