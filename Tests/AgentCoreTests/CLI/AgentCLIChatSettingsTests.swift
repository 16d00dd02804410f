import AgentCore
import Foundation
import TestSupport
import Testing

/// A chat's own settings from the terminal: `--system`, `--temperature`, `--max-tokens`,
/// `--no-tools` and `--preset` kept with a new chat and carried by its requests, then and later.
@Suite("agent-cli with a chat's settings and presets")
struct AgentCLIChatSettingsTests {
    let server = TestServer.shared

    static func body(_ request: [String: Any]) -> [String: Any] {
        request["body"] as? [String: Any] ?? [:]
    }

    static func systemPrompt(_ request: [String: Any]) -> String? {
        let messages = body(request)["messages"] as? [[String: Any]] ?? []
        return messages.first { $0["role"] as? String == "system" }?["content"] as? String
    }

    @Test("--system, --temperature and --max-tokens stay with a new chat; continuing without options asks with them")
    func settingsStayWithTheChat() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", "new", "--system", "Answer in haiku.",
                                                             "--temperature", "0.4", "--max-tokens", "50", "Hello"], environment: home)
        #expect(made.status == 0, "\(made.stderr)")
        let id = try #require(AgentCLIChatTests.chatID(in: made.stderr))
        let chatID = try #require(UUID(uuidString: id))
        let again = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "Again"], environment: home)
        #expect(again.stdout == "Echo: Again (4 messages)\n", "the system prompt and the first turn")

        let requests = try await server.requests(containing: marker)
        #expect(requests.count == 2)
        for request in requests {
            #expect(Self.systemPrompt(request) == "Answer in haiku.")
            #expect(Self.body(request)["temperature"] as? Double == 0.4)
            #expect(Self.body(request)["max_tokens"] as? Int == 50)
            #expect(Self.body(request)["tools"] != nil, "tools are on unless the chat turns them off")
        }
        let summary = try #require(try AgentCLIChatTests.store(in: home).chat(chatID))
        #expect(summary.settings == ChatSettings(systemPrompt: "Answer in haiku.", temperature: 0.4, maxTokens: 50))

        let changed = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "--temperature", "0.9", "Warmer"],
                                                  environment: home)
        #expect(changed.status == 0, "\(changed.stderr)")
        let warmer = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "Still warm"], environment: home)
        #expect(warmer.status == 0)
        let later = try await server.requests(containing: marker).dropFirst(2)
        #expect(later.map { Self.body($0)["temperature"] as? Double } == [0.9, 0.9], "--temperature changed the chat's own")
        #expect(try AgentCLIChatTests.store(in: home).chat(chatID)?.temperature == 0.9)
    }

    @Test("--preset Translator: its prompt and temperature, no tools; kept with the chat, and marked used")
    func presetStartsTheChat() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", "new", "--preset", "Translator", "Bonjour"],
                                               environment: home)
        #expect(made.status == 0, "\(made.stderr)")
        let id = try #require(AgentCLIChatTests.chatID(in: made.stderr).flatMap(UUID.init(uuidString:)))
        _ = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id.uuidString, "Merci"], environment: home)
        let overridden = try await ProductRunner.run("agent-cli", ["--server", url, "--preset", "translator", "--temperature", "0.9",
                                                                   "Hallo"], environment: home)
        #expect(overridden.stdout == "Echo: Hallo (2 messages)\n", "one prompt with the preset, and no chat")

        let requests = try await server.requests(containing: marker)
        #expect(requests.count == 3)
        for request in requests {
            #expect(Self.systemPrompt(request)?.hasPrefix("You translate.") == true)
            #expect(Self.body(request)["tools"] == nil, "the preset offers no tools")
        }
        #expect(requests.map { Self.body($0)["temperature"] as? Double } == [0.3, 0.3, 0.9], "an option given wins over the preset")

        let store = try AgentCLIChatTests.store(in: home)
        let summary = try #require(try store.chat(id))
        #expect(summary.preset == "Translator")
        #expect(!summary.toolsEnabled)
        #expect(try store.lastUsedPreset()?.name == "Translator")
    }

    @Test("--list-presets prints the shipped three; an unknown preset is refused with their names")
    func listAndRefusePresets() async throws {
        let home = AgentCLIChatTests.home()
        let list = try await ProductRunner.run("agent-cli", ["--list-presets"], environment: home)
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.prefix { $0 != "\t" } } == ["Plain Assistant", "Terse Code Reviewer", "Translator"])
        #expect(lines.first == "Plain Assistant\tthe system prompt of Preferences")
        #expect(lines.last?.hasPrefix("Translator\ttemperature 0.3, no tools, “You translate. Reply with") == true)

        let unknown = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "--preset", "Poet", "x"],
                                                  environment: home)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("there is no preset “Poet”; the presets are: Plain Assistant, Terse Code Reviewer, Translator"))
        #expect(try AgentCLIChatTests.store(in: home).chats().isEmpty, "no chat was started")

        let made = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "x"], environment: home)
        let id = try #require(AgentCLIChatTests.chatID(in: made.stderr))
        let onExisting = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", id, "--preset", "Translator",
                                                                   "y"], environment: home)
        #expect(onExisting.status == 2)
        #expect(onExisting.stderr.contains("--preset starts a chat"))
    }

    @Test("--no-tools on an existing chat holds for that turn alone: the chat keeps its tools")
    func noToolsForOneTurn() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", "new", "Hello"], environment: home)
        #expect(made.status == 0, "\(made.stderr)")
        let id = try #require(AgentCLIChatTests.chatID(in: made.stderr))
        let chatID = try #require(UUID(uuidString: id))
        let without = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "--no-tools", "No tools now"], environment: home)
        #expect(without.status == 0, "\(without.stderr)")
        #expect(try AgentCLIChatTests.store(in: home).chat(chatID)?.toolsEnabled == true, "the chat's own setting is unchanged")
        let after = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "And now?"], environment: home)
        #expect(after.status == 0, "\(after.stderr)")

        let requests = try await server.requests(containing: marker)
        #expect(requests.map { Self.body($0)["tools"] != nil } == [true, false, true], "tools offered, not for the --no-tools turn, then again")
    }
}
