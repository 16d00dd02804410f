import AgentCore
import Foundation
import Testing
import TestSupport

/// agent-cli's MCP options beyond `--mcp-config`, as a script uses them: `--mcp` (the app's
/// own mcp.json and what Preferences allowed), `--call-tool`, `--tools`, `--ca-file`, and the
/// log each stdio server's stderr goes to.
@Suite("agent-cli's MCP options", .serialized)
struct MCPCLIOptionsTests {
    let server = TestServer.shared

    /// `--list-tools`' lines from `source` (a server's name), by tool name.
    static func tools(from source: String, in output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return fields.count == 3 && fields[1] == source ? fields[0] : nil
        }
    }

    /// The names of the tools a recorded request offered the model.
    static func offered(_ request: [String: Any]) -> [String] {
        let tools = (request["body"] as? [String: Any])?["tools"] as? [[String: Any]] ?? []
        return tools.compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
    }

    @Test("--mcp reads the app's own mcp.json: a command the app has not allowed does not run without a terminal; allowed in the app, it runs, less the tools switched off there; without --mcp the file is not read")
    func appConfig() async throws {
        let home = PrivateHome("agent-cli-mcp")
        defer { home.remove() }
        let environment = home.environment
        var document = MCPConfigDocument()
        document.add(name: "time", entry: MCPCLITests.timeEntry)
        let appConfig = home.config.appending(path: AppIdentity.applicationID)
        try document.save(to: appConfig.appending(path: "mcp.json"))

        let notAllowed = try await ProductRunner.run("agent-cli", ["--mcp", "--list-tools"], environment: environment)
        #expect(Self.tools(from: "time", in: notAllowed.stdout).isEmpty, "\(notAllowed.stdout)")
        #expect(notAllowed.stderr.contains("the MCP server “time” was not started: its command has not been allowed in Agent"),
                "\(notAllowed.stderr)")

        // What Preferences keeps once the user allowed the command and switched convert_time off.
        let fingerprint = try #require(document.servers(environment: [:]).servers.first).launchFingerprint
        try home.setSettings("""
            mcp-approved-launches=['\(fingerprint)']
            mcp-disabled-tools=['\(MCPToolKey(server: "time", tool: "convert_time").stored.replacingOccurrences(of: "\t", with: "\\t"))']
            """)
        let allowed = try await ProductRunner.run("agent-cli", ["--mcp", "--list-tools"], environment: environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(Self.tools(from: "time", in: allowed.stdout) == ["get_current_time"], "\(allowed.stdout)\n\(allowed.stderr)")

        let unasked = try await ProductRunner.run("agent-cli", ["--list-tools"], environment: environment)
        #expect(unasked.status == 0, "\(unasked.stderr)")
        #expect(unasked.stdout.contains("get_datetime\tbuiltin") && Self.tools(from: "time", in: unasked.stdout).isEmpty,
                "the file is not read unless asked: \(unasked.stdout)")
    }

    @Test("--call-tool calls one tool by name with --arguments: no model, no question (the user named it), the result on stdout; a failed call exits 1")
    func callTool() async throws {
        let config = try MCPCLITests.configFile([("time", MCPCLITests.timeEntry)])
        let converted = try await ProductRunner.run("agent-cli", [
            "--mcp-config", config, "--call-tool", "convert_time",
            "--arguments", #"{"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}"#,
        ])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout.contains("T21:00:00+09:00") && converted.stdout.contains("\"time_difference\": \"+9.0h\""),
                "\(converted.stdout)")
        let invalid = try await ProductRunner.run("agent-cli", ["--mcp-config", config, "--call-tool", "get_current_time",
                                                               "--arguments", #"{"timezone": 3}"#])
        #expect(invalid.status == 1)
        #expect(invalid.stdout.contains("invalid arguments for get_current_time"), "\(invalid.stdout)")
        let notJSON = try await ProductRunner.run("agent-cli", ["--mcp-config", config, "--call-tool", "get_current_time",
                                                               "--arguments", "timezone=UTC"])
        #expect(notJSON.status == 2 && notJSON.stderr.contains("--arguments is not JSON"), "\(notJSON.stderr)")
    }

    @Test("--tools offers the model only the tools named, Agent's and the servers' alike; without it, all of them")
    func onlyNamedTools() async throws {
        let config = try MCPCLITests.configFile([("time", MCPCLITests.timeEntry)])
        let every = uniqueMarker()
        let all = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(every)"), "--mcp-config", config, "hi"])
        #expect(all.status == 0, "\(all.stderr)")
        let named = uniqueMarker()
        let some = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(named)"), "--mcp-config", config,
                                                            "--tools", "convert_time,get_datetime", "hi"])
        #expect(some.status == 0, "\(some.stderr)")
        let allOffered = Self.offered(try #require(try await server.requests(containing: every).first))
        #expect(Set(allOffered).isSuperset(of: ["get_datetime", "get_location", "get_current_time", "convert_time"]), "\(allOffered)")
        let someOffered = Self.offered(try #require(try await server.requests(containing: named).first))
        #expect(someOffered.sorted() == ["convert_time", "get_datetime"])
    }

    @Test("--ca-file trusts an HTTPS MCP server signed by that CA, in a chat with a server and in a call without one; without it the server fails on its certificate")
    func caFileForAnMCPServer() async throws {
        let caFile = server.caFile
        let web = try MCPTestServers.HTTPServer(tlsDirectory: URL(filePath: caFile).deletingLastPathComponent().path)
        defer { web.stop() }
        let config = try MCPCLITests.configFile([("web", .object([("url", .string(web.url)),
                                                                  ("headers", .object([("Authorization", .string("Bearer \(web.token)"))]))]))])
        let add = ["--call-tool", "add", "--arguments", #"{"a": 20, "b": 22}"#]
        let untrusted = try await ProductRunner.run("agent-cli", ["--mcp-config", config] + add)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("MCP server “web” failed") && untrusted.stderr.lowercased().contains("certificate"),
                "\(untrusted.stderr)")
        let trusted = try await ProductRunner.run("agent-cli", ["--mcp-config", config, "--ca-file", caFile] + add)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout == "42\n")

        let marker = uniqueMarker()
        let chat = try await ProductRunner.run("agent-cli", ["--server", server.tlsURL("echo/\(marker)"), "--ca-file", caFile,
                                                            "--mcp-config", config, "hi"])
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(Self.offered(try #require(try await server.requests(containing: marker).first)).contains("add"),
                "the MCP server's tools were offered: it was trusted too")
    }

    @Test("A stdio server's stderr goes to $XDG_STATE_HOME/io.github.agentdesktop.Agent/mcp/NAME.log, readable by the user alone")
    func serverLog() async throws {
        let home = PrivateHome("agent-cli-mcp")
        defer { home.remove() }
        try await Self.expectServerLog(environment: home.environment, in: home.state)
    }

    @Test("Without $XDG_STATE_HOME the log goes to ~/.local/state/io.github.agentdesktop.Agent/mcp/NAME.log")
    func serverLogInTheHome() async throws {
        let home = PrivateHome("agent-cli-mcp-home")
        defer { home.remove() }
        try await Self.expectServerLog(environment: home.homeEnvironment, in: home.folder.appending(path: ".local/state"))
    }

    /// Lists a scripted stdio server's tools with `environment`; its stderr must be in the
    /// app's folder of `stateFolder`, readable by the user alone.
    private static func expectServerLog(environment: [String: String], in stateFolder: URL,
                                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let name = uniqueMarker("logged")
        let scripted = MCPTestServers.scripted()
        guard case .stdio(let command, let arguments, _, _) = scripted.transport else { throw CocoaError(.featureUnsupported) }
        let config = try MCPCLITests.configFile([(name, .object([("command", .string(command)),
                                                                 ("args", .array(arguments.map(JSONValue.string)))]))])
        let result = try await ProductRunner.run("agent-cli", ["--mcp-config", config, "--list-tools"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(tools(from: name, in: result.stdout).contains("echo_args"), sourceLocation: sourceLocation)
        let log = stateFolder.appending(path: "\(AppIdentity.applicationID)/mcp/\(name).log")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("scripted server: started pid") && text.contains("scripted server: initialize asked for"), "\(text)",
                sourceLocation: sourceLocation)
        let permissions = try FileManager.default.attributesOfItem(atPath: log.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600, sourceLocation: sourceLocation)
    }
}
