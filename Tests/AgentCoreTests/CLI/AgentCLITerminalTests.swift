import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli` with a person at the terminal: its questions on /dev/tty, through a
/// pseudo-terminal of its own.
@Suite("agent-cli at a terminal")
struct AgentCLITerminalTests {
    let server = TestServer.shared

    @Test("Ctrl+C at a consent question: answered No at once, as a Stop — no further question, nothing sent back, exit 130")
    func interruptAtAQuestion() async throws {
        let marker = uniqueMarker()
        // The model calls get_location twice in one round: each call would ask.
        let terminal = try TerminalRun("agent-cli", ["--server", server.url("tools-twoasks/\(marker)"), "where am I"],
                                       environment: AgentCLITests.isolated)
        defer { terminal.end() }
        let question = "Share it? [o]nce, [a]lways, [N]o: "
        try #require(try await terminal.shows(question), "the question was asked: \(terminal.shown)")
        try terminal.type("\u{03}")
        #expect(try await terminal.ends(within: .seconds(10)), "Ctrl+C ended it without Enter: \(terminal.shown)")
        let shown = terminal.shown
        #expect(shown.contains(question + "^C\r\nagent-cli: tool get_location → Error: the user declined to share their location"),
                "answered No, on a line of its own: \(shown)")
        #expect(shown.components(separatedBy: question).count == 2, "asked once: \(shown)")
        #expect(shown.components(separatedBy: "agent-cli: tool get_location {}").count == 2, "the second call never ran: \(shown)")
        // `script -e` would say 130 for a death by SIGINT too: the lines above show agent-cli lived to end the reply.
        #expect(!terminal.isRunning && terminal.status == 130)
        #expect(try await server.requests(containing: marker).count == 1, "nothing went back to the model")
    }
}
