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

    /// A home whose own mcp.json has a stdio server the app was never allowed to launch:
    /// `--mcp` asks before running it.
    private static func homeWithAnUnallowedServer(_ prefix: String) throws -> PrivateHome {
        let home = PrivateHome(prefix)
        var document = MCPConfigDocument()
        document.add(name: "time", entry: MCPCLITests.timeEntry)
        try document.save(to: home.config.appending(path: AppIdentity.applicationID).appending(path: "mcp.json"))
        return home
    }

    static let launchQuestion = "Run it? [y]es, [N]o: "

    /// Runs agent-cli with `arguments` where it asks to launch a server, types Ctrl+C at that
    /// question, and returns what the terminal showed once agent-cli ended, with exit 130.
    private func interruptedAtTheLaunchQuestion(_ arguments: [String]) async throws -> String {
        let home = try Self.homeWithAnUnallowedServer("agent-cli-launch")
        defer { home.remove() }
        let terminal = try TerminalRun("agent-cli", arguments, environment: home.environment)
        defer { terminal.end() }
        try #require(try await terminal.shows(Self.launchQuestion), "the launch was asked about: \(terminal.shown)")
        try terminal.type("\u{03}")
        #expect(try await terminal.ends(within: .seconds(10)), "Ctrl+C ended it without Enter: \(terminal.shown)")
        // `script -e` would say 130 for a death by SIGINT too: the callers' check that the
        // question's line ended shows agent-cli lived to answer.
        #expect(!terminal.isRunning && terminal.status == 130)
        return terminal.shown
    }

    @Test("Ctrl+C at a server's launch question, before the reply: answered No, nothing sent, exit 130 — not death by the signal")
    func interruptAtALaunchQuestion() async throws {
        let marker = uniqueMarker()
        let shown = try await interruptedAtTheLaunchQuestion(["--server", server.url("echo/\(marker)"), "--mcp", "hi"])
        #expect(shown.contains(Self.launchQuestion + "^C\r\n"), "answered No, on a line of its own: \(shown)")
        #expect(shown.components(separatedBy: Self.launchQuestion).last?.trimmingCharacters(in: .newlines) == "^C", "nothing more: \(shown)")
        #expect(try await server.requests(containing: marker).isEmpty, "nothing went to the model")
    }

    @Test("Ctrl+C at a server's launch question with --list-tools: answered No, no list, exit 130")
    func interruptAtALaunchQuestionWhileListingTools() async throws {
        let shown = try await interruptedAtTheLaunchQuestion(["--mcp", "--list-tools"])
        #expect(shown.hasSuffix(Self.launchQuestion + "^C\r\n"), "answered No, on a line of its own, and no list: \(shown)")
    }

    @Test("Ctrl+C while a server is slow to start: agent-cli waits for it no longer, sends nothing, exit 130")
    func interruptWhileAServerStarts() async throws {
        let marker = uniqueMarker()
        let home = PrivateHome("agent-cli-slow-start")
        defer { home.remove() }
        let started = home.folder.appending(path: "started")
        // Named with --mcp-config, it runs unasked; it never answers the handshake.
        let config = try MCPCLITests.configFile([("slow", .object([
            ("command", .string("/bin/sh")), ("args", .array([.string("-c"), .string("touch '\(started.path)'; exec sleep 600")])),
        ]))])
        try FileManager.default.createDirectory(at: home.folder, withIntermediateDirectories: true)
        let terminal = try TerminalRun("agent-cli", ["--server", server.url("echo/\(marker)"), "--mcp-config", config,
                                                     "--chat", "new", "hi"], environment: home.environment)
        defer { terminal.end() }
        try #require(try await TestTiming.eventually(within: .seconds(60)) { FileManager.default.fileExists(atPath: started.path) },
                     "the server started: \(terminal.shown)")
        try terminal.type("\u{03}")
        #expect(try await terminal.ends(within: .seconds(10)), "Ctrl+C ended it, not the server's start timeout: \(terminal.shown)")
        // Written once the wait for the servers is over: agent-cli lived past the Ctrl+C
        // (`script -e` says 130 for a death by SIGINT too).
        #expect(terminal.shown.contains("agent-cli: chat "), "\(terminal.shown)")
        #expect(!terminal.isRunning && terminal.status == 130)
        #expect(try await server.requests(containing: marker).isEmpty, "nothing went to the model")
    }
}
