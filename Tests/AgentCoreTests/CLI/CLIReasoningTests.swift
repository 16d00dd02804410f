import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli` with a reasoning model: the answer alone on stdout; the thinking on stderr
/// only with `--show-reasoning`; never sent back in the next turn.
@Suite("agent-cli with reasoning models")
struct CLIReasoningTests {
    let server = TestServer.shared
    static let thought = "The user says hello. I should greet them back."
    static let answer = "Hello! How can I help?"

    /// Each form of reasoning the test server streams: scenario and protocol.
    static let forms: [(scenario: String, protocol: String)] = [
        ("think-reasoningcontent", "openai"), ("think-reasoning", "openai"), ("think-tags", "openai"),
        ("ollamathink-field", "ollama"), ("ollamathink-tags", "ollama"),
    ]

    func run(_ form: (scenario: String, protocol: String), _ extra: [String] = [], environment: [String: String]) async throws
        -> ProductRunner.Output {
        try await ProductRunner.run("agent-cli", ["--server", server.url("\(form.scenario)/\(uniqueMarker())"),
                                                  "--protocol", form.protocol, "--model", "qwen3"] + extra + ["hi"],
                                    environment: environment)
    }

    @Test("stdout has the answer alone; --show-reasoning writes the thinking to stderr", arguments: 0..<forms.count)
    func answerAloneOnStdout(_ index: Int) async throws {
        let home = AgentCLIChatTests.home()
        let quiet = try await run(Self.forms[index], environment: home)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout == Self.answer + "\n")
        #expect(!quiet.stderr.contains("greet"))
        let shown = try await run(Self.forms[index], ["--show-reasoning"], environment: home)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == Self.answer + "\n")
        #expect(shown.stderr.contains(Self.thought + "\n"), "\(shown.stderr)")
    }

    @Test("A stored chat keeps the thinking, and the next request carries the answer alone", arguments: [0, 2, 3, 4])
    func notSentBack(_ index: Int) async throws {
        let form = Self.forms[index]
        let home = AgentCLIChatTests.home()
        let first = try await run(form, ["--chat", "new"], environment: home)
        let id = try #require(AgentCLIChatTests.chatID(in: first.stderr))
        let stored = try AgentCLIChatTests.store(in: home).messages(in: try #require(UUID(uuidString: id))).map(\.message)
        #expect(stored.last?.text == Self.answer)
        #expect(stored.last?.reasoning?.text == Self.thought)
        #expect(stored.last?.reasoning?.seconds != nil)
        let marker = uniqueMarker()
        let echo = form.protocol == "ollama" ? "ollama-echo" : "echo"
        let second = try await ProductRunner.run("agent-cli", ["--server", server.url("\(echo)/\(marker)"), "--protocol", form.protocol,
                                                               "--model", "qwen3", "--chat", id, "and?"], environment: home)
        #expect(second.status == 0, "\(second.stderr)")
        let request = try #require(try await server.requests(containing: marker).first)
        let messages = try #require((request["body"] as? [String: Any])?["messages"] as? [[String: Any]])
        #expect(messages.compactMap { $0["content"] as? String } == ["hi", Self.answer, "and?"])
        let body = String(decoding: try JSONSerialization.data(withJSONObject: request["body"] ?? [:]), as: UTF8.self)
        #expect(!body.contains("greet") && !body.contains("think"), "\(body)")
    }
}
