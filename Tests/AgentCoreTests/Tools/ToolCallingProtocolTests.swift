import AgentCore
import Foundation
import TestSupport
import Testing

/// Tool calling over each protocol against protocol-faithful test servers that script the
/// calls: one, several in a turn, fragmented arguments, an unknown tool, an error mid-round.
/// Each test checks the exact follow-up requests Agent sends.
@Suite("Tool calling over OpenAI, Ollama and the llmtools harness")
struct ToolCallingProtocolTests {
    let server = TestServer.shared

    struct Outcome {
        let recorder: TurnRecorder
        let error: (any Error)?
        let requests: [[String: Any]]
    }

    func turn(_ scenario: String, protocol kind: ChatProtocol = .openai, prompt: String = "Where am I?",
              toolbox: Toolbox? = nil, appID: String = "test-app") async throws -> Outcome {
        let toolbox = try toolbox ?? TestTools.toolbox()
        let marker = uniqueMarker()
        let endpoint = ChatEndpoint(serverURL: server.url("\(scenario)/\(marker)"), protocol: kind, model: "test-model")
        let connection = await ChatConnection(endpoint: endpoint, toolbox: toolbox)
        let recorder = TurnRecorder()
        var failure: (any Error)?
        do {
            let turn = try await connection.turn(appID: appID)
            try await turn.run(context: [ChatMessage(role: .user, text: prompt, state: .done)]) { recorder.record($0) }
        } catch {
            failure = error
        }
        return Outcome(recorder: recorder, error: failure, requests: try await server.requests(containing: marker))
    }

    static func messages(_ request: [String: Any]) -> [[String: Any]] {
        (request["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
    }

    static func body(_ request: [String: Any]) -> [String: Any] {
        request["body"] as? [String: Any] ?? [:]
    }

    // MARK: OpenAI

    @Test func openAISingleCall() async throws {
        let outcome = try await turn("tools-single")
        #expect(outcome.error == nil)
        #expect(outcome.recorder.text == "Tool results: latitude: 48.8566, longitude: 2.3522")
        #expect(outcome.requests.count == 2)
        let first = Self.body(outcome.requests[0])
        let tools = try #require(first["tools"] as? [[String: Any]])
        #expect(tools.compactMap { ($0["function"] as? [String: Any])?["name"] as? String } == ["get_location", "get_datetime", "forecast"])
        #expect(tools.allSatisfy { $0["type"] as? String == "function" })
        let followUp = Self.messages(outcome.requests[1])
        #expect(followUp.count == 3)
        #expect(followUp[0]["role"] as? String == "user")
        #expect(followUp[1]["role"] as? String == "assistant")
        #expect(followUp[1]["content"] is NSNull)
        let calls = try #require(followUp[1]["tool_calls"] as? [[String: Any]])
        #expect(calls.count == 1)
        #expect(calls[0]["id"] as? String == "call_loc")
        #expect(calls[0]["type"] as? String == "function")
        #expect((calls[0]["function"] as? [String: Any])?["name"] as? String == "get_location")
        #expect((calls[0]["function"] as? [String: Any])?["arguments"] as? String == "{}")
        #expect(followUp[2]["role"] as? String == "tool")
        #expect(followUp[2]["tool_call_id"] as? String == "call_loc")
        #expect(followUp[2]["content"] as? String == "latitude: 48.8566, longitude: 2.3522")
    }

    @Test func openAISeveralCallsInOneTurn() async throws {
        let outcome = try await turn("tools-several")
        #expect(outcome.error == nil)
        #expect(outcome.recorder.finishedCalls.map(\.name) == ["get_location", "get_datetime"])
        #expect(outcome.recorder.text.hasPrefix("Let me look. Tool results: latitude: 48.8566"))
        let followUp = Self.messages(outcome.requests[1])
        #expect(followUp.map { $0["role"] as? String } == ["user", "assistant", "tool", "tool"])
        #expect(followUp[1]["content"] as? String == "Let me look. ")
        #expect((followUp[1]["tool_calls"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["call_a", "call_b"])
        #expect(followUp[2]["tool_call_id"] as? String == "call_a")
        #expect(followUp[3]["tool_call_id"] as? String == "call_b")
        #expect((followUp[3]["content"] as? String)?.hasPrefix("date: 2026-11-29 (Sunday), time: 15:30:00, time zone: Europe/Paris (UTC+01:00)") == true)
    }

    @Test("Argument fragments are joined per index and parsed as JSON of any type")
    func openAIFragmentedArguments() async throws {
        let outcome = try await turn("tools-fragmented")
        #expect(outcome.error == nil)
        let call = try #require(outcome.recorder.finishedCalls.first)
        #expect(call.arguments == .object([("city", .string("Paris")), ("days", .number(3)), ("metric", .bool(true))]))
        #expect(call.result == "Paris: sunny for 3 days (metric)")
        let followUp = Self.messages(outcome.requests[1])
        let function = (followUp[1]["tool_calls"] as? [[String: Any]])?.first?["function"] as? [String: Any]
        #expect(function?["arguments"] as? String == #"{"city":"Paris","days":3,"metric":true}"#)
    }

    @Test("Bad arguments give the model a clear error result instead of running the tool")
    func openAIBadArguments() async throws {
        let outcome = try await turn("tools-badargs")
        let call = try #require(outcome.recorder.finishedCalls.first)
        #expect(call.failed)
        #expect(call.result?.hasPrefix("Error: invalid arguments for forecast") == true)
        let followUp = Self.messages(outcome.requests[1])
        #expect((followUp[2]["content"] as? String)?.hasPrefix("Error: invalid arguments") == true)
    }

    @Test("A tool Agent does not have: said in the reply and to the user; the turn goes on")
    func openAIUnknownTool() async throws {
        let outcome = try await turn("tools-unknown")
        #expect(outcome.error == nil)
        #expect(outcome.recorder.problems.count == 1)
        #expect(outcome.recorder.problems.first?.contains("launch_rocket") == true)
        #expect(outcome.recorder.text.hasPrefix("Error: The model called a tool Agent does not have: “launch_rocket”."))
        let followUp = Self.messages(outcome.requests[1])
        #expect(followUp.map { $0["role"] as? String } == ["user", "assistant", "tool"])
        let result = followUp.last?["content"] as? String ?? ""
        #expect(result.contains("there is no tool named “launch_rocket”"))
        #expect(result.hasSuffix("the tools are: get_location, get_datetime, forecast."))
        #expect(outcome.recorder.text.hasSuffix("Tool results: \(result)"))
    }

    @Test func openAIErrorMidRound() async throws {
        let outcome = try await turn("tools-error")
        #expect(outcome.recorder.finishedCalls.count == 1, "the first round's tool ran")
        guard case .http(let status, _, _, let message, _) = outcome.error as? ChatError else {
            Issue.record("expected the follow-up's HTTP error, got \(String(describing: outcome.error))")
            return
        }
        #expect(status == 500)
        #expect(message == "the tool round failed")
    }

    @Test("A model that keeps calling tools is stopped after 8 rounds")
    func roundCap() async throws {
        let outcome = try await turn("tools-loop")
        #expect(outcome.error as? ChatError == .toolRoundLimit(8))
        #expect(outcome.requests.count == 8)
        #expect(outcome.recorder.finishedCalls.count == 8)
        #expect(Self.messages(outcome.requests[7]).count == 1 + 2 * 7, "each round carries all earlier calls and results")
    }

    @Test("With no tools enabled, no tools field is sent")
    func noTools() async throws {
        let outcome = try await turn("echo", toolbox: Toolbox())
        #expect(Self.body(outcome.requests[0])["tools"] == nil)
    }

    // MARK: Ollama

    @Test func ollamaToolCallWithObjectArguments() async throws {
        let outcome = try await turn("ollama-tools", protocol: .ollama)
        #expect(outcome.error == nil)
        let call = try #require(outcome.recorder.finishedCalls.first)
        #expect(call.arguments == .object([("city", .string("Paris")), ("days", .number(3)), ("metric", .bool(true))]))
        #expect(outcome.recorder.text == "Tool results: forecast=Paris: sunny for 3 days (metric)")
        #expect(outcome.requests.map { $0["path"] as? String ?? "" }.allSatisfy { $0.hasSuffix("/api/chat") })
        let first = Self.body(outcome.requests[0])
        #expect(first["stream"] as? Bool == true)
        #expect((first["tools"] as? [[String: Any]])?.count == 3)
        let followUp = Self.messages(outcome.requests[1])
        #expect(followUp.map { $0["role"] as? String } == ["user", "assistant", "tool"])
        let sentCall = (followUp[1]["tool_calls"] as? [[String: Any]])?.first?["function"] as? [String: Any]
        #expect(sentCall?["name"] as? String == "forecast")
        let arguments = try #require(sentCall?["arguments"] as? [String: Any], "Ollama gets arguments as an object")
        #expect(arguments["days"] as? Int == 3 && arguments["metric"] as? Bool == true)
        #expect(followUp[2]["tool_name"] as? String == "forecast")
        #expect(followUp[2]["content"] as? String == "Paris: sunny for 3 days (metric)")
    }

    @Test func ollamaSeveralCallsAndTokenCounts() async throws {
        let outcome = try await turn("ollama-several", protocol: .ollama)
        #expect(outcome.error == nil)
        #expect(outcome.recorder.finishedCalls.map(\.name) == ["get_location", "get_datetime"])
        let usages = outcome.recorder.all.compactMap { if case .reply(.usage(let usage)) = $0 { usage } else { nil } }
        // Each round's figures, then the reply's: both rounds' completions and times added up.
        #expect(usages.first == TokenUsage(promptTokens: 122, completionTokens: 33, generationSeconds: 0.552222))
        #expect(usages.last == TokenUsage(promptTokens: 122, completionTokens: 66, generationSeconds: 1.104444))
        let followUp = Self.messages(outcome.requests[1])
        #expect(followUp.map { $0["role"] as? String } == ["user", "assistant", "tool", "tool"])
        #expect(followUp[1]["content"] as? String == "Checking. ")
    }

    @Test("Ollama over the wire: a last line without its newline keeps its text and token counts")
    func ollamaLastLineWithoutNewline() async throws {
        let outcome = try await turn("ollama-nonewline", protocol: .ollama)
        #expect(outcome.error == nil)
        #expect(outcome.recorder.text == "Hello world")
        let usage = outcome.recorder.all.compactMap { if case .reply(.usage(let usage)) = $0 { usage } else { nil } }.last
        #expect(usage == TokenUsage(promptTokens: 122, completionTokens: 33, generationSeconds: 0.552222))
    }

    @Test func ollamaUnknownTool() async throws {
        let outcome = try await turn("ollama-unknown", protocol: .ollama)
        #expect(outcome.error == nil)
        #expect(outcome.recorder.problems.first?.contains("launch_rocket") == true)
        #expect((Self.messages(outcome.requests[1]).last?["content"] as? String)?.hasPrefix("Error: there is no tool") == true)
    }

    @Test func ollamaErrors() async throws {
        let line = try await turn("ollama-errorline", protocol: .ollama)
        #expect(line.error as? ChatError == .server(message: "an unexpected error occurred"))
        #expect(line.recorder.text.hasPrefix("Half way"))
        let http = try await turn("ollama-http404", protocol: .ollama)
        guard case .http(404, _, _, let message, _) = http.error as? ChatError else {
            Issue.record("expected HTTP 404, got \(String(describing: http.error))")
            return
        }
        #expect(message == "model \"nosuch\" not found, try pulling it first")
        let cut = try await turn("ollama-cutoff", protocol: .ollama)
        guard case .cutOff = cut.error as? ChatError else {
            Issue.record("expected a cut-off stream, got \(String(describing: cut.error))")
            return
        }
    }

    @Test func ollamaModelList() async throws {
        let client = OllamaChatClient(endpoint: ChatEndpoint(serverURL: server.url("ollama"), protocol: .ollama, model: "x"))
        #expect(try await client.models() == ["llama3.2:latest", "qwen3:0.6b"])
    }

    // MARK: The llmtools harness

    @Test("llmtools: tools in the first request, then only the results, with the same appID")
    func harnessRounds() async throws {
        let outcome = try await turn("harness-tools", protocol: .llmtools, prompt: "Where am I?", appID: "io.example.app.1234")
        #expect(outcome.error == nil)
        #expect(outcome.recorder.text == "Checking. You are at latitude: 48.8566, longitude: 2.3522")
        #expect(outcome.requests.count == 2)
        #expect(outcome.requests.allSatisfy { ($0["path"] as? String)?.hasSuffix("/llmtools") == true })
        let first = Self.body(outcome.requests[0])
        #expect(first["appID"] as? String == "io.example.app.1234")
        #expect(first["model"] as? String == "test-model")
        #expect(first["stream"] as? Bool == true)
        #expect(Self.messages(outcome.requests[0]).map { $0["role"] as? String } == ["user"])
        #expect(Self.messages(outcome.requests[0]).first?["content"] as? String == "Where am I?")
        #expect((first["tools"] as? [[String: Any]])?.count == 3)
        let second = Self.body(outcome.requests[1])
        #expect(second["appID"] as? String == "io.example.app.1234")
        #expect(second["tools"] == nil)
        let results = Self.messages(outcome.requests[1])
        #expect(results.count == 1)
        #expect(results[0]["role"] as? String == "tool")
        #expect(results[0]["content"] as? String == "latitude: 48.8566, longitude: 2.3522")
    }

    @Test func harnessErrorEvent() async throws {
        let outcome = try await turn("harness-error", protocol: .llmtools)
        #expect(outcome.error as? ChatError == .server(message: "the harness could not reach Ollama"))
        #expect(outcome.recorder.text == "Error: the harness could not reach Ollama")
    }
}
