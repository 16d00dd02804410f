import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli` as a script uses it: stdout, stderr and the exit status.
@Suite("agent-cli")
struct AgentCLITests {
    let server = TestServer.shared

    @Test func printsTheReplyAndANewline() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "hello", "world"])
        #expect(result.status == 0)
        #expect(result.stdout == "Echo: hello world (1 messages)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func readsThePromptFromStandardInput() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("echo")], stdin: "from stdin\n")
        #expect(result.status == 0)
        #expect(result.stdout == "Echo: from stdin (1 messages)\n")
    }

    @Test func theHarnessAPIPathIsUsed() async throws {
        let marker = uniqueMarker()
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(marker)"), "--api", "/llmprompt",
                                                               "--model", "gemma3:270m", "--temperature", "0",
                                                               "--seed", "3", "--max-tokens", "5", "hi"])
        #expect(result.status == 0)
        let request = try #require(try await server.requests(containing: marker).first)
        #expect((request["path"] as? String)?.hasSuffix("/llmprompt") == true)
        let body = try #require(request["body"] as? [String: Any])
        #expect(body["model"] as? String == "gemma3:270m")
        #expect(body["temperature"] as? Double == 0)
        #expect(body["seed"] as? Int == 3)
        #expect(body["max_tokens"] as? Int == 5)
    }

    @Test("Failures exit 1 with the error on stderr and whatever arrived on stdout", arguments: [
        ("http500", "", "the model crashed"),
        ("errorevent", "Partial answer\n\nError: quota exceeded for this key", "quota exceeded"),
        ("dataerror", "Before the error\n\nError: context size exceeded", "context size exceeded"),
        ("cutoff", "Half a", "cut off"),
        ("reset", "Dropped mid", "cut off"),
    ])
    func failures(scenario: String, stdout: String, message: String) async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url(scenario), "go"])
        #expect(result.status == 1)
        #expect(result.stdout == stdout + "\n")
        #expect(result.stderr.contains(message))
    }

    @Test func caFileTrustsASelfSignedServer() async throws {
        let trusted = try await ProductRunner.run("agent-cli", ["--server", server.tlsURL("echo"), "--ca-file", server.caFile, "tls"])
        #expect(trusted.status == 0)
        #expect(trusted.stdout == "Echo: tls (1 messages)\n")
        let untrusted = try await ProductRunner.run("agent-cli", ["--server", server.tlsURL("echo"), "tls"])
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("certificate"))
    }

    @Test("The window's program takes the same options and rejects bad ones before opening a window")
    func appOptions() async throws {
        let help = try await ProductRunner.run("agent", ["--help"])
        #expect(help.status == 0)
        for option in ["--server", "--api", "--model", "--api-key-env", "--ca-file"] {
            #expect(help.stdout.contains(option))
        }
        let bad = try await ProductRunner.run("agent", ["--server", "ftp://nope"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--server must be an http"))
    }

    /// A private settings folder, so the tests never read or write the user's own.
    static let isolated = ["XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appending(path: "agent-cli-\(UUID())").path]

    @Test("Preferences' server profile is not used: --server names the server, and without it the local model answers")
    func ignoresPreferencesProfiles() async throws {
        let home = PrivateHome("agent-cli-profiles")
        defer { home.remove() }
        let appConfig = home.config.appending(path: AppIdentity.applicationID)
        let runtime = home.folder.appending(path: "no-runtime")
        for folder in [appConfig, runtime, home.data, home.state] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // Chats go to the profile "box" (server A): an earlier version's settings.ini, which
        // the first run moves into GSettings, here a key file of the test's own.
        let profileMarker = uniqueMarker("profile")
        try """
            [general]
            profile=box

            [profile box]
            name=Box
            url=\(server.url("echo/\(profileMarker)"))
            model=profile-model
            """.write(to: appConfig.appending(path: "settings.ini"), atomically: true, encoding: .utf8)
        let environment = home.environment.merging(["AGENT_RUNTIME_DIR": runtime.path]) { $1 }

        let marker = uniqueMarker()
        let named = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(marker)"), "hi"], environment: environment)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == "Echo: hi (1 messages)\n")
        let request = try #require(try await server.requests(containing: marker).first)
        #expect((request["body"] as? [String: Any])?["model"] as? String == LaunchOptions.defaultRemoteModel, "not the profile's model")
        // The profile was in force all along: GSettings has it, chosen.
        let keyFile = try String(contentsOf: home.config.appending(path: "glib-2.0/settings/keyfile"), encoding: .utf8)
        #expect(keyFile.contains("active-profile='box'") && keyFile.contains(server.url("echo/\(profileMarker)")), "\(keyFile)")

        let unnamed = try await ProductRunner.run("agent-cli", ["hi"], environment: environment)
        #expect(unnamed.status == 1)
        #expect(unnamed.stderr.contains("using the local model") && unnamed.stderr.contains("local model runtime is not installed"),
                "\(unnamed.stderr)")
        #expect(try await server.requests(containing: profileMarker).isEmpty, "nothing went to the profile's server")
    }

    @Test func ollamaProtocol() async throws {
        let marker = uniqueMarker()
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("ollama-echo/\(marker)"), "--protocol", "ollama",
                                                               "--model", "llama3.2", "hi"], environment: Self.isolated)
        #expect(result.status == 0)
        #expect(result.stdout == "Echo: hi\n")
        let request = try #require(try await server.requests(containing: marker).first)
        #expect((request["path"] as? String)?.hasSuffix("/api/chat") == true)
    }

    @Test("llmtools with --location: the tool runs without asking; activity on stderr, the reply on stdout")
    func harnessWithToolsAndLocation() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("harness-tools"), "--protocol", "llmtools",
                                                               "--location", "1.5,2.5", "Where am I?"], environment: Self.isolated)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Checking. You are at latitude: 1.5, longitude: 2.5\n")
        #expect(result.stderr.contains("agent-cli: tool get_location {}"))
        #expect(result.stderr.contains("agent-cli: tool get_location → latitude: 1.5, longitude: 2.5"))
    }

    @Test func noToolsSendsNoTools() async throws {
        let marker = uniqueMarker()
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(marker)"), "--no-tools", "x"],
                                                 environment: Self.isolated)
        #expect(result.status == 0)
        let request = try #require(try await server.requests(containing: marker).first)
        #expect((request["body"] as? [String: Any])?["tools"] == nil)
        let withTools = uniqueMarker()
        _ = try await ProductRunner.run("agent-cli", ["--server", server.url("echo/\(withTools)"), "x"], environment: Self.isolated)
        let toolRequest = try #require(try await server.requests(containing: withTools).first)
        #expect(((toolRequest["body"] as? [String: Any])?["tools"] as? [[String: Any]])?.count == 2)
    }

    @Test("Without a terminal to ask, get_location is refused and the model is told")
    func locationWithoutConsent() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("tools-single"), "x"], environment: Self.isolated)
        #expect(result.stdout == "Tool results: Error: the user declined to share their location\n")
    }

    @Test func unknownToolExits1() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", server.url("tools-unknown"), "x"], environment: Self.isolated)
        #expect(result.status == 1)
        #expect(result.stderr.contains("launch_rocket"))
    }

    @Test(arguments: [["--protocol", "grpc"], ["--location", "91,0"], ["--location", "paris"], ["--protocol", "ollama", "x"]])
    func badToolOptions(arguments: [String]) async throws {
        let result = try await ProductRunner.run("agent-cli", arguments)
        #expect(result.status == 2)
    }

    @Test func aRefusedConnectionExits1() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", "http://127.0.0.1:9", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("127.0.0.1:9"))
    }

    @Test func theAPIKeyIsSentAndNeverPrinted() async throws {
        let good = try await ProductRunner.run("agent-cli", ["--server", server.url("auth"), "--api-key-env", "TEST_KEY", "hi"],
                                               environment: ["TEST_KEY": "secret-key"])
        #expect(good.status == 0)
        #expect(good.stdout == "Authorized reply\n")
        let bad = try await ProductRunner.run("agent-cli", ["--server", server.url("auth"), "--api-key-env", "TEST_KEY", "hi"],
                                              environment: ["TEST_KEY": "sk-wrong-key-987"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("Invalid API key"))
        #expect(!(bad.stdout + bad.stderr).contains("sk-wrong-key-987"))
    }

    @Test("Usage errors exit 2", arguments: [["--bogus"], ["--server"], ["--server", "nope", "x"], ["--model", "m", "x"]])
    func usageErrors(arguments: [String]) async throws {
        let result = try await ProductRunner.run("agent-cli", arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("agent-cli:"))
    }

    @Test("The reply reaches stdout while it is still streaming")
    func streamsAsItArrives() async throws {
        let scenario = server.gate()
        let (process, output, _) = try ProductRunner.start("agent-cli", ["--server", server.url(scenario), "x"])
        let first = await ProductRunner.nextData(output.fileHandleForReading)
        #expect(String(decoding: first, as: UTF8.self) == "Streaming", "the first word, while the server holds the rest")
        #expect(process.isRunning)
        try await server.release(scenario)
        let rest = await ProductRunner.readToEnd(output.fileHandleForReading)
        process.waitUntilExit()
        #expect(String(decoding: rest, as: UTF8.self) == " reply to: x. One token at a time, as a model writes.\n")
        #expect(process.terminationStatus == 0)
    }

    @Test("Ctrl+C stops the reply: what arrived is printed, exit 130")
    func interrupt() async throws {
        let (process, output, _) = try ProductRunner.start("agent-cli", ["--server", server.url("stall"), "x"])
        let first = await ProductRunner.nextData(output.fileHandleForReading)
        #expect(String(decoding: first, as: UTF8.self) == "Waiting")
        kill(process.processIdentifier, SIGINT)
        let rest = await ProductRunner.readToEnd(output.fileHandleForReading)
        process.waitUntilExit()
        #expect(String(decoding: rest, as: UTF8.self) == "\n")
        #expect(process.terminationStatus == 130)
    }
}
