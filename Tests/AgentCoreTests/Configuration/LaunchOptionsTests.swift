@testable import AgentCore
import Foundation
import Testing

@Suite("Command-line options")
struct LaunchOptionsTests {
    @Test func parsesEveryOptionInBothForms() throws {
        let options = try LaunchOptions.parse(["--server", "https://h:8443", "--api=/llmprompt", "--model", "m",
                                               "--api-key-env", "KEY", "--ca-file=/dev/null", "hello", "world"],
                                              acceptsWords: true)
        #expect(options.server == "https://h:8443")
        #expect(options.apiPath == "/llmprompt")
        #expect(options.model == "m")
        #expect(options.apiKeyEnvironmentVariable == "KEY")
        #expect(options.caFile == "/dev/null")
        #expect(options.words == ["hello", "world"])
        let endpoint = try #require(try options.endpoint(environment: ["KEY": "sk-123"]))
        #expect(endpoint.url == "https://h:8443/llmprompt")
        #expect(endpoint.apiKey?.value == "sk-123")
        #expect(endpoint.caFile == "/dev/null")
    }

    @Test func samplingSettings() throws {
        let options = try LaunchOptions.parse(["--temperature", "0", "--seed=7", "--max-tokens", "64"], acceptsWords: false)
        #expect(options.generation == GenerationOptions(temperature: 0, seed: 7, maxTokens: 64))
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--max-tokens", "0"], acceptsWords: false) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--temperature", "hot"], acceptsWords: false) }
        for endless in ["inf", "infinity", "nan"] {
            #expect(throws: LaunchOptions.ParseError.self, "\(endless)") { try LaunchOptions.parse(["--temperature", endless], acceptsWords: false) }
        }
    }

    @Test func defaultsFollowTheSeed() throws {
        let endpoint = try #require(try LaunchOptions.parse(["--server", "http://x/"], acceptsWords: false).endpoint(environment: [:]))
        #expect(endpoint.url == "http://x/v1/chat/completions")
        #expect(endpoint.model == LaunchOptions.defaultRemoteModel)
        #expect(try LaunchOptions.parse([], acceptsWords: false).endpoint(environment: [:]) == nil, "no server: the local model")
    }

    @Test("--idle-timeout: 60 seconds unless given, 0 for no limit; the requests carry what it says")
    func idleTimeout() throws {
        #expect(HTTPRequest.defaultIdleTimeout == .seconds(60))
        #expect(ChatEndpoint(serverURL: "http://x", model: "m").idleTimeout == .seconds(60))
        func requestLimit(_ arguments: [String]) throws -> Duration? {
            let endpoint = try #require(try LaunchOptions.parse(["--server", "http://x"] + arguments, acceptsWords: true)
                .endpoint(environment: [:]))
            // What agent-cli's and the window's requests to that server are sent with.
            return try endpoint.streamingRequest(body: .object([]), accept: "text/event-stream").idleTimeout
        }
        #expect(try requestLimit([]) == .seconds(60))
        #expect(try requestLimit(["--idle-timeout", "0"]) == nil, "0: no limit")
        #expect(try requestLimit(["--idle-timeout=5"]) == .seconds(5))
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--idle-timeout", "-1"], acceptsWords: true) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--idle-timeout", "soon"], acceptsWords: true) }
    }

    @Test func badCommandLinesAreRejectedWithAReason() {
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--bogus"], acceptsWords: true) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--server"], acceptsWords: true) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["word"], acceptsWords: false) }
        #expect(throws: LaunchOptions.ParseError.self) {
            try LaunchOptions.parse(["--server", "ftp://x"], acceptsWords: false).endpoint(environment: [:])
        }
        #expect(throws: LaunchOptions.ParseError.self) {
            try LaunchOptions.parse(["--server", "http://x", "--api-key-env", "MISSING"], acceptsWords: false).endpoint(environment: [:])
        }
    }

    @Test("--server needs a host: an http:// URL without one is a bad command line, not a failed request")
    func serverWithoutAHost() throws {
        for url in ["http://", "https://", "http:///v1", "http://:8080", "http:// x"] {
            #expect(throws: LaunchOptions.ParseError.self, "\(url)") {
                try LaunchOptions.parse(["--server", url], acceptsWords: false).endpoint(environment: [:])
            }
        }
        for url in ["http://localhost:8080", "HTTPS://Example.org/v1", "http://[::1]:11434"] {
            #expect(try LaunchOptions.parse(["--server", url], acceptsWords: false).endpoint(environment: [:])?.serverURL == url)
        }
    }

    @Test("--ca-file without --server: refused, unless agent-cli is given MCP servers, which use it")
    func caFileForMCPServers() throws {
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--ca-file", "/dev/null"], acceptsWords: true).endpoint() }
        for mcp in [["--mcp-config", "mcp.json"], ["--mcp"]] {
            #expect(try LaunchOptions.parse(mcp + ["--ca-file", "/dev/null"], acceptsWords: true).endpoint() == nil, "\(mcp)")
            #expect(throws: LaunchOptions.ParseError.self, "\(mcp)") {
                try LaunchOptions.parse(mcp + ["--ca-file", "/no/such/ca.pem"], acceptsWords: true).endpoint()
            }
        }
    }

    @Test("agent-cli's chat options: --regenerate, --edit MESSAGE_ID, --system, --preset, --list-presets")
    func chatOptions() throws {
        let id = UUID()
        let options = try LaunchOptions.parse(["--chat", "new", "--system", "Be brief", "--preset=Translator", "--list-presets",
                                               "--regenerate", "--edit", id.uuidString.lowercased(), "text"], acceptsWords: true)
        #expect(options.systemPrompt == "Be brief")
        #expect(options.preset == "Translator")
        #expect(options.listPresets)
        #expect(options.regenerate)
        #expect(options.editMessage == id)
        #expect(options.words == ["text"])
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--edit", "3"], acceptsWords: true) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--system", "x"], acceptsWords: false) }
    }

    @Test("The window's --new-chat [TEXT] and --open CHAT_ID, which a running Agent is handed")
    func windowRequests() throws {
        #expect(try LaunchOptions.parse(["--new-chat"], acceptsWords: false).windowRequest == .newChat(message: nil))
        #expect(try LaunchOptions.parse(["--new-chat", "Hello there"], acceptsWords: false).windowRequest == .newChat(message: "Hello there"))
        #expect(try LaunchOptions.parse(["--new-chat=Hi", "--no-tools"], acceptsWords: false).windowRequest == .newChat(message: "Hi"))
        let before = try LaunchOptions.parse(["--new-chat", "--no-tools"], acceptsWords: false)
        #expect(before.windowRequest == .newChat(message: nil) && before.noTools, "an option after it is not its message")
        let id = UUID()
        #expect(try LaunchOptions.parse(["--open", id.uuidString], acceptsWords: false).windowRequest == .open(id))
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--open", "chat"], acceptsWords: false) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--open", id.uuidString], acceptsWords: true) }
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--new-chat"], acceptsWords: true) }
    }

    @Test("--set-up-local-model is the window's (scripts/run passes it) and leaves the saved settings in charge")
    func setUpLocalModelIsTheWindowsOption() throws {
        let options = try LaunchOptions.parse(["--set-up-local-model"], acceptsWords: false)
        #expect(options.setUpLocalModel)
        #expect(options.usesSettings)
        #expect(try !LaunchOptions.parse([], acceptsWords: false).setUpLocalModel)
        #expect(throws: LaunchOptions.ParseError.self) { try LaunchOptions.parse(["--set-up-local-model"], acceptsWords: true) }
    }

    @Test("An API key never shows in descriptions")
    func apiKeyIsRedacted() {
        let endpoint = ChatEndpoint(serverURL: "http://x", model: "m", apiKey: APIKey("sk-very-secret"))
        #expect(!String(describing: endpoint).contains("sk-very-secret"))
        #expect(!String(reflecting: endpoint).contains("sk-very-secret"))
    }
}
