import AgentCore
import Foundation
import Testing
import TestSupport

/// `agent-cli` with MCP servers, as a script uses it: `--mcp-config`, `--list-tools`,
/// approval ahead or refusal without a terminal, Ctrl+C, and a real model's round trip.
@Suite("agent-cli with MCP servers", .serialized)
struct MCPCLITests {
    let server = TestServer.shared

    /// A config file holding `configs`' entries as a user would write them.
    static func configFile(_ entries: [(String, JSONValue)]) throws -> String {
        var document = MCPConfigDocument()
        for (name, entry) in entries { document.add(name: name, entry: entry) }
        let file = FileManager.default.temporaryDirectory.appending(path: "agent-cli-mcp-\(UUID().uuidString)/mcp.json")
        try document.save(to: file)
        return file.path
    }

    static var timeEntry: JSONValue {
        .object([("command", .string(MCPTestServers.venv.appending(path: "bin/mcp-server-time").path)),
                 ("args", .array([.string("--local-timezone"), .string("UTC")]))])
    }

    @Test("--list-tools: NAME, SOURCE, DESCRIPTION per tool; a server that fails is named on stderr, the others still work")
    func listTools() async throws {
        let config = try Self.configFile([("time", Self.timeEntry),
                                     ("broken", .object([("command", .string("no-such-mcp-command"))]))])
        let result = try await ProductRunner.run("agent-cli", ["--mcp-config", config, "--list-tools"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.allSatisfy { $0.count == 3 })
        #expect(lines.contains(["get_datetime", "builtin", "Get the current local date, time and time zone of the user"]))
        #expect(lines.contains(["get_current_time", "time", "Get current time in a specific timezone"]))
        #expect(lines.contains { $0.first == "convert_time" && $0[1] == "time" })
        #expect(result.stderr.contains("MCP server “broken” failed") && result.stderr.contains("no-such-mcp-command"), "\(result.stderr)")
    }

    @Test("No terminal and no approval: the call is refused, the model reads so, stderr says how to allow it")
    func refusedWithoutATerminal() async throws {
        let config = try Self.configFile([("time", Self.timeEntry)])
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("tools-mcptime"), "--mcp-config", config, "what time is it"])
        #expect(result.stdout.contains("Tool results: Error: the user did not approve this call"), "\(result.stdout)")
        #expect(result.stderr.contains("no terminal to ask") && result.stderr.contains("--allow-tools get_current_time"), "\(result.stderr)")
    }

    @Test("--allow-tools approves ahead: the tool runs and its result goes back to the model; the tool line names the server")
    func allowedAhead() async throws {
        let config = try Self.configFile([("time", Self.timeEntry)])
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("tools-mcptime"), "--mcp-config", config,
                                                               "--allow-tools", "get_current_time", "what time is it"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Tool results: {") && result.stdout.contains("\"timezone\": \"UTC\""), "\(result.stdout)")
        #expect(result.stderr.contains("agent-cli: tool time › get_current_time {\"timezone\":\"UTC\"}"), "\(result.stderr)")
    }

    /// agent-cli streaming a reply that stalls, with the scripted server started for the
    /// turn; `marker` finds the server among the processes.
    func stalledReplyWithAServer(marker: String) async throws -> Process {
        let scripted = MCPTestServers.scripted()
        guard case .stdio(let command, let arguments, _, _) = scripted.transport else { throw CocoaError(.featureUnsupported) }
        let config = try Self.configFile([("scripted", .object([("command", .string(command)),
                                                           ("args", .array((arguments + ["--tag", marker]).map(JSONValue.string)))]))])
        let (process, output, _) = try ProductRunner.start("agent-cli", ["--server", server.url("stall"), "--mcp-config", config, "hi"])
        _ = await ProductRunner.nextData(output.fileHandleForReading)  // "Waiting": the reply streams, the server runs
        #expect(!MCPServerTests.processes(matching: marker).isEmpty, "the server was started for the turn")
        return process
    }

    @Test("Ctrl+C while a reply streams: agent-cli exits 130 and every stdio server it started has ended")
    func interruptEndsServers() async throws {
        let marker = uniqueMarker("mcp")
        let process = try await stalledReplyWithAServer(marker: marker)
        kill(process.processIdentifier, SIGINT)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(process.terminationStatus == 130)
        #expect(MCPServerTests.processes(matching: marker).isEmpty, "nothing of it is left")
    }

    @Test("agent-cli killed outright (SIGKILL, as in a crash): its stdio server does not outlive it")
    func noOrphanAfterACrash() async throws {
        let marker = uniqueMarker("mcp")
        let process = try await stalledReplyWithAServer(marker: marker)
        kill(process.processIdentifier, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while !MCPServerTests.processes(matching: marker).isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(MCPServerTests.processes(matching: marker).isEmpty, "the server died with agent-cli")
    }

    @MainActor
    @Test("Gemma 3 270M calls an MCP tool on the SDK's HTTP server and its reply holds the answer (temperature 0, seed 7, 24 tokens: one call per round)")
    func gemmaRoundTrip() async throws {
        let model = LocalModelServer(model: .gemma3)
        defer { model.stop() }
        let endpoint = try await model.endpoint()
        let web = try MCPTestServers.HTTPServer()
        defer { web.stop() }
        let config = try Self.configFile([("web", .object([("url", .string(web.url)),
                                                     ("headers", .object([("Authorization", .string("Bearer \(web.token)"))]))]))])
        // Gemma 3 270M is a base model whose greedy reply follows the CPU's rounding: the prompt is a wording
        // it answers with a call on the AVX-512 machines CI runs on.
        let result = try await ProductRunner.run("agent-cli", [
            "--server", endpoint.serverURL, "--model", endpoint.model, "--temperature", "0", "--seed", "7", "--max-tokens", "24",
            "--mcp-config", config, "--tools", "get_weather", "--allow-tools", "get_weather", "Call get_weather().",
        ])
        #expect(result.stderr.contains("agent-cli: tool web › get_weather → sunny, 21 degrees"), "\(result.stderr)")
        #expect(result.stdout.contains("sunny, 21 degrees"), "the model used the answer: \(result.stdout)")
    }
}
