@testable import AgentCore
import Foundation
import Testing

@Suite("Chat stream decoding: OpenAI chunks inside SSE")
struct OpenAIStreamDecoderTests {
    static func decode(_ stream: String) -> (events: [ReplyEvent], outcome: StreamOutcome) {
        var decoder = OpenAIStreamDecoder()
        let events = decoder.feed(Array(stream.utf8))
        let end = decoder.finish()
        return (events + end.events, end.outcome)
    }

    @Test func contentIsReadFromTheFirstChoiceDelta() {
        let result = Self.decode("""
            data: {"model":"m","choices":[{"delta":{"role":"assistant","content":null}}]}

            data: {"choices":[{"delta":{"content":"Hel"}}]}

            data: {"choices":[{"delta":{"content":"lo"}}]}

            data: [DONE]


            """)
        #expect(result.events == [.started(model: "m", created: nil), .text("Hello"), .finished(reason: nil)])
        #expect(result.outcome == .complete(toolCalls: []))
    }

    @Test("Numbers no Int can hold (found by fuzz-reply-decoders) are ignored, not trapped on")
    func outOfRangeNumbersAreIgnored() {
        let result = Self.decode("""
            data: {"choices":[{"delta":{"tool_calls":[{"index":999999999999999999991,"id":"c1","function":{"name":"get_location","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1e300,"completion_tokens":-1e300}}

            data: [DONE]


            """)
        #expect(result.outcome == .complete(toolCalls: [ToolCall(id: "c1", name: "get_location", arguments: .object([]))]))
        #expect(result.events.contains(.usage(TokenUsage(promptTokens: nil, completionTokens: nil))))
    }

    @Test("Tool-call fragments: joined per index; one bringing another id begins a call (Gemini sends each call whole at no index or 0)")
    func toolCallsAreToldApartByIndexAndID() {
        let openAI = Self.decode("""
            data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"get_location","arguments":""}}]}}]}

            data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}

            data: {"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"forecast","arguments":"{\\"city\\":"}}]}}]}

            data: {"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"arguments":"\\"Oslo\\"}"}}]},"finish_reason":"tool_calls"}]}


            """)
        let expected = [ToolCall(id: "a", name: "get_location", arguments: .object([])),
                        ToolCall(id: "b", name: "forecast", arguments: .object([("city", .string("Oslo"))]))]
        #expect(openAI.outcome == .complete(toolCalls: expected), "an id sent again on a later fragment continues its call")
        let gemini = Self.decode("""
            data: {"choices":[{"delta":{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"get_location","arguments":"{}"}}]}}]}

            data: {"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"b","type":"function","function":{"name":"forecast","arguments":"{\\"city\\":\\"Oslo\\"}"}}]},"finish_reason":"tool_calls"}]}


            """)
        #expect(gemini.outcome == .complete(toolCalls: expected))
        let freshIDs = Self.decode("""
            data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"get_location","arguments":""}}]}}]}

            data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a-2","function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}


            """)
        #expect(freshIDs.outcome == .complete(toolCalls: [ToolCall(id: "a-2", name: "get_location", arguments: .object([]))]),
                "a fragment under another id that names no tool continues the call")
    }

    @Test func nullAbsentAndEmptyContentAndEmptyChoicesAreSkipped() {
        let result = Self.decode("""
            data: {"choices":[]}

            data: {"choices":[{"delta":{}}]}

            data: {"choices":[{"delta":{"content":null}}]}

            data: {"choices":[{"delta":{"content":""}}]}

            data: {"choices":[{"index":0}]}

            data: {"choices":[{"delta":{"content":"x"}}]}

            data: {"choices":[],"usage":{"prompt_tokens":1}}

            data: [DONE]


            """)
        #expect(result.events.contains(.text("x")))
        #expect(result.outcome == .complete(toolCalls: []))
    }

    @Test("Token counts: `usage` (include_usage) and llama.cpp's `timings`, whose time gives tokens per second")
    func tokenCountsAndTimings() {
        let result = Self.decode("""
            data: {"choices":[{"delta":{"content":"Hi"}}]}

            data: {"choices":[{"delta":{},"finish_reason":"stop"}],"timings":{"prompt_n":3,"predicted_n":40,"predicted_ms":500.0}}

            data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":40,"total_tokens":52},"timings":{"prompt_n":3,"predicted_n":40,"predicted_ms":500.0}}

            data: [DONE]


            """)
        let usages = result.events.compactMap { if case .usage(let usage) = $0 { usage } else { nil } }
        #expect(usages.first == TokenUsage(promptTokens: 3, completionTokens: 40, generationSeconds: 0.5))
        #expect(usages.last == TokenUsage(promptTokens: 12, completionTokens: 40, generationSeconds: 0.5),
                "usage's prompt count (cached tokens included) wins over timings'")
        #expect(usages.last?.tokensPerSecond == 80)
        #expect(usages.last?.summary == "40 tokens · 80.0 tokens/s")
        #expect(TokenUsage(completionTokens: 1).summary == "1 token")
        #expect(TokenUsage().summary == nil)
    }

    @Test func finishReasonCompletesWithoutDone() {
        let result = Self.decode("""
            data: {"choices":[{"delta":{"content":"a"},"finish_reason":null}]}

            data: {"choices":[{"delta":{},"finish_reason":"length"}]}


            """)
        #expect(result.outcome == .complete(toolCalls: []))
    }

    @Test func aStreamWithoutDoneOrFinishReasonIsCutOff() {
        let result = Self.decode("data: {\"choices\":[{\"delta\":{\"content\":\"half\"}}]}\n\n")
        #expect(result.events == [.started(model: nil, created: nil), .text("half")])
        #expect(result.outcome == .cutOff)
    }

    @Test("event: error carries its text into the reply and fails the request")
    func errorEvent() {
        let result = Self.decode("data: {\"choices\":[{\"delta\":{\"content\":\"part\"}}]}\n\nevent: error\ndata: rate limited\n\ndata: [DONE]\n\n")
        #expect(result.events.contains(.serverError("rate limited")))
        #expect(result.outcome == .failed(message: "rate limited"))
    }

    @Test("An error event's JSON payload gives its message")
    func errorEventWithJSON() {
        let result = Self.decode("event: error\ndata: {\"error\":{\"message\":\"bad key\",\"type\":\"auth\"}}\n\n")
        #expect(result.events == [.serverError("bad key")])
        // A chunk whose content says what went wrong, a bare message, and an error of null.
        let chunk = Self.decode("event: error\ndata: {\"choices\":[{\"delta\":{\"content\":\"overloaded\"}}]}\n\n")
        #expect(chunk.events == [.serverError("overloaded")])
        let bare = Self.decode("event: error\ndata: {\"error\":null,\"detail\":\"try later\"}\n\n")
        #expect(bare.events == [.serverError("try later")])
        let array = Self.decode("event: error\ndata: [1]\n\n")
        #expect(array.events == [.serverError("[1]")])
    }

    @Test("data: {\"error\": …} in the stream fails the request with the server's message")
    func dataErrorObject() {
        let object = Self.decode("data: {\"error\":{\"code\":500,\"message\":\"context exceeded\",\"type\":\"server_error\"}}\n\n")
        #expect(object.outcome == .failed(message: "context exceeded"))
        let text = Self.decode("data: {\"error\":\"plain text error\"}\n\n")
        #expect(text.outcome == .failed(message: "plain text error"))
    }

    @Test("A whole JSON body instead of a stream: a completion gives its text and tool calls, an error its message")
    func wholeJSONReply() {
        let completion = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"m",
             "choices":[{"index":0,"message":{"role":"assistant","content":"<think>Hm.</think>Hello there"},"finish_reason":"stop"}],
             "usage":{"prompt_tokens":5,"completion_tokens":3}}
            """
        // Fed in two pieces, split inside the JSON.
        var decoder = OpenAIStreamDecoder()
        let bytes = Array(completion.utf8)
        let events = decoder.feed(Array(bytes[..<40])) + decoder.feed(Array(bytes[40...]))
        let end = decoder.finish()
        #expect(events + end.events == [.started(model: "m", created: Date(timeIntervalSince1970: 1700000000)),
                                         .reasoning("Hm."), .text("Hello there"),
                                         .usage(TokenUsage(promptTokens: 5, completionTokens: 3)), .finished(reason: "stop")])
        #expect(end.outcome == .complete(toolCalls: []))
        let tools = Self.decode("""
            {"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
              {"id":"a","type":"function","function":{"name":"get_location","arguments":"{}"}},
              {"id":"b","type":"function","function":{"name":"forecast","arguments":"{\\"city\\":\\"Oslo\\"}"}}]},
              "finish_reason":"tool_calls"}]}
            """)
        #expect(tools.outcome == .complete(toolCalls: [ToolCall(id: "a", name: "get_location", arguments: .object([])),
                                                       ToolCall(id: "b", name: "forecast", arguments: .object([("city", .string("Oslo"))]))]))
        let error = Self.decode("""
            {"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}
            """)
        #expect(error.outcome == .failed(message: "This model's maximum context length is 8192 tokens."))
        #expect(error.events == [.serverError("This model's maximum context length is 8192 tokens.")])
        let codeOnly = Self.decode("\n{\"error\":{\"code\":\"context_length_exceeded\"}}")
        #expect(codeOnly.outcome == .failed(message: "error context_length_exceeded"))
        let other = Self.decode(" \n{\"status\":\"ok\"}")
        guard case .failed(let message) = other.outcome, message.hasSuffix(":\n{\"status\":\"ok\"}") else {
            Issue.record("expected a report of what the server sent, got \(other.outcome)")
            return
        }
        var cut = OpenAIStreamDecoder()
        _ = cut.feed(Array(" \n".utf8))
        _ = cut.feed(Array("{\"status\":\"ok\"}".utf8))
        #expect(cut.finish().outcome == other.outcome, "the same however the body was cut")
    }

    @Test("A whole JSON body that ends part way was cut off, wherever it ends, as a stream that ends early is")
    func wholeJSONCutOff() {
        let body = Array("""
            {"model":"m","choices":[{"message":{"role":"assistant","content":"Cut \\u00e9 short","tool_calls":null},"finish_reason":"stop"}],"n":-1.5e+2,"ok":true}
            """.utf8)
        #expect(Self.decode(String(decoding: body, as: UTF8.self)).outcome == .complete(toolCalls: []))
        for length in 1..<body.count {
            let cut = Self.decode(String(decoding: body[..<length], as: UTF8.self))
            #expect(cut.outcome == .cutOff, "cut after \(length) bytes")
            #expect(cut.events.isEmpty, "cut after \(length) bytes")
        }
    }

    @Test("A whole JSON body after a byte-order mark is read as JSON, however the mark was cut; a mark left unfinished is not one")
    func wholeJSONAfterAByteOrderMark() {
        let body = [0xEF, 0xBB, 0xBF] + Array("""
            {"choices":[{"message":{"role":"assistant","content":"Marked"},"finish_reason":"stop"}]}
            """.utf8)
        // Whole, and a byte at a time.
        for pieces in [[body], body.map { [$0] }] {
            var decoder = OpenAIStreamDecoder()
            let events = pieces.flatMap { decoder.feed($0) }
            let end = decoder.finish()
            #expect(events + end.events == [.started(model: nil, created: nil), .text("Marked"), .finished(reason: "stop")])
            #expect(end.outcome == .complete(toolCalls: []))
        }
        var unfinished = OpenAIStreamDecoder()
        _ = unfinished.feed([0xEF, 0xBB] + Array("{\"status\":\"ok\"}".utf8))
        #expect(unfinished.finish().outcome == .cutOff, "read as a stream, whose one line never ended")
    }

    @Test func nothingAfterDoneCounts() {
        let result = Self.decode("data: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"late\"}}]}\n\n")
        #expect(!result.events.contains(.text("late")))
    }

    @Test("Garbage alone is reported; garbage among good chunks is skipped")
    func garbage() {
        let alone = Self.decode("data: not json\n\n")
        if case .failed(let message) = alone.outcome {
            #expect(message.contains("not json"))
        } else {
            Issue.record("expected a failure, got \(alone.outcome)")
        }
        let mixed = Self.decode("data: not json\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n")
        #expect(mixed.outcome == .complete(toolCalls: []))
    }

    @Test("A burst of tokens in one chunk becomes one text update")
    func coalescing() {
        let burst = String(repeating: "data: {\"choices\":[{\"delta\":{\"content\":\"t\"}}]}\n\n", count: 50)
        let result = Self.decode(burst)
        #expect(result.events.filter { if case .text = $0 { true } else { false } } == [.text(String(repeating: "t", count: 50))])
    }
}
