import AgentCore
import Testing

@Suite("Ollama's NDJSON stream and the harness's SSE, decoded whole and byte by byte")
struct NDJSONAndOllamaDecoderTests {
    static func decode<D: ReplyStreamDecoder>(_ decoder: D, _ text: String, byteByByte: Bool) -> ([ReplyEvent], StreamOutcome) {
        var decoder = decoder
        var events: [ReplyEvent] = []
        let bytes = Array(text.utf8)
        if byteByByte {
            for byte in bytes { events += decoder.feed([byte]) }
        } else {
            events = decoder.feed(bytes)
        }
        let end = decoder.finish()
        return (events + end.events, end.outcome)
    }

    static func text(_ events: [ReplyEvent]) -> String {
        events.reduce(into: "") { if case .text(let piece) = $1 { $0 += piece } }
    }

    @Test func linesAreSplitAnywhere() {
        var splitter = NDJSONLineSplitter()
        var lines: [String] = []
        for byte in Array("{\"a\":1}\r\n\n  \n{\"b\":\"é\"}\n{\"c\":3}".utf8) {
            splitter.feed([byte]) { lines.append(String(decoding: $0, as: UTF8.self)) }
        }
        splitter.finish { lines.append(String(decoding: $0, as: UTF8.self)) }
        #expect(lines == [#"{"a":1}"#, #"{"b":"é"}"#, #"{"c":3}"#])
    }

    @Test(arguments: [false, true])
    func ollamaStream(byteByByte: Bool) {
        let stream = """
            {"model":"llama3.2","created_at":"2023-08-04T08:52:19.385406455-07:00","message":{"role":"assistant","content":"The"},"done":false}
            {"model":"llama3.2","created_at":"2023-08-04T08:52:19.385406455-07:00","message":{"role":"assistant","content":" sky 👋"},"done":false}
            {"model":"llama3.2","created_at":"2023-08-04T19:22:45.499127Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris","days":2,"ok":true,"list":[1,null]}}}]},"done":false}
            {"model":"llama3.2","created_at":"2023-08-04T19:22:45.499127Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":4883583458,"prompt_eval_count":26,"eval_count":282,"eval_duration":4535599000}

            """
        let (events, outcome) = Self.decode(OllamaStreamDecoder(), stream, byteByByte: byteByByte)
        #expect(Self.text(events) == "The sky 👋")
        #expect(events.contains(.usage(TokenUsage(promptTokens: 26, completionTokens: 282, generationSeconds: 4.535599))))
        #expect(events.contains(.finished(reason: "stop")))
        guard case .complete(let calls) = outcome else {
            Issue.record("expected a complete round, got \(outcome)")
            return
        }
        #expect(calls.map(\.name) == ["get_weather"])
        #expect(calls.first?.arguments == .object([("city", .string("Paris")), ("days", .number(2)), ("ok", .bool(true)),
                                                   ("list", .array([.number(1), .null]))]))
    }

    @Test func ollamaErrorsAndCutOffs() {
        #expect(Self.decode(OllamaStreamDecoder(), "{\"error\":\"model not found\"}\n", byteByByte: false).1
                == .failed(message: "model not found"))
        #expect(Self.decode(OllamaStreamDecoder(), "{\"message\":{\"content\":\"half\"},\"done\":false}\n", byteByByte: false).1 == .cutOff)
        let garbage = Self.decode(OllamaStreamDecoder(), "not json at all\n", byteByByte: false).1
        guard case .failed(let message) = garbage else {
            Issue.record("expected a failure for garbage, got \(garbage)")
            return
        }
        #expect(message.contains("not json at all"))
    }

    @Test(arguments: [false, true])
    func harnessStream(byteByByte: Bool) {
        let stream = "data: {\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"Look\"},\"done\":false}\n\n"
            + "event: tool_calls\ndata: {\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"get_location\",\"arguments\":{}}}]},\"done\":false}\n\n"
        let (events, outcome) = Self.decode(HarnessStreamDecoder(), stream, byteByByte: byteByByte)
        #expect(Self.text(events) == "Look")
        guard case .complete(let calls) = outcome else {
            Issue.record("expected a complete round, got \(outcome)")
            return
        }
        #expect(calls.map(\.name) == ["get_location"])
        #expect(Self.decode(HarnessStreamDecoder(), "event: error\ndata: busy\n\n", byteByByte: byteByByte).1 == .failed(message: "busy"))
        #expect(Self.decode(HarnessStreamDecoder(), "data: {\"message\":{\"content\":\"x\"},\"done\":false}\n\n", byteByByte: byteByByte).1 == .cutOff)
    }
}

@Suite("Streams end as they end: the last line without a newline, units too large to keep")
struct StreamEndTests {
    @Test("Ollama's last line without a newline still gives its text and token counts")
    func ollamaLastLineWithoutNewline() {
        var decoder = OllamaStreamDecoder()
        let events = decoder.feed(Array(("""
            {"model":"m","message":{"role":"assistant","content":"Hello"},"done":false}
            {"model":"m","message":{"role":"assistant","content":" world"},"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":2,"eval_duration":1000000000}
            """).utf8))
        let end = decoder.finish()
        let all = events + end.events
        #expect(NDJSONAndOllamaDecoderTests.text(all) == "Hello world")
        #expect(all.contains(.usage(TokenUsage(promptTokens: 5, completionTokens: 2, generationSeconds: 1))))
        #expect(end.outcome == .complete(toolCalls: []))
    }

    /// The limit is 16 MB (`StreamLimit`); these tests use 1 KB, to run in a moment.
    static let limit = 1024

    @Test("An SSE event over the limit is dropped with a clear error; the parser's memory stays bounded and later events still parse")
    func oversizedSSEEvent() {
        var parser = SSEParser(limit: Self.limit)
        var events: [SSEEvent] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
        parser.feed(Array("data: ".utf8)) { events.append($0) }
        for _ in 0..<10 { parser.feed(chunk) { events.append($0) } }
        #expect(parser.overflowed)
        parser.feed(Array("\ndata: \(String(repeating: "y", count: 600))\ndata: \(String(repeating: "z", count: 600))\n\n".utf8)) {
            events.append($0)
        }
        parser.feed(Array("data: after\n\n".utf8)) { events.append($0) }
        #expect(events.map(\.data) == ["after"], "both oversized events were dropped, the next one read")
        #expect(SSEParser().limit == 16 << 20)

        var decoder = OpenAIStreamDecoder(limit: Self.limit)
        var decoded = decoder.feed(Array("data: ".utf8))
        for _ in 0..<10 { decoded += decoder.feed(chunk) }
        #expect(decoded.contains(.serverError(StreamLimit.message)))
        #expect(decoder.finish().outcome == .failed(message: StreamLimit.message))
    }

    @Test("An NDJSON line over the limit is dropped with a clear error")
    func oversizedNDJSONLine() {
        var decoder = OllamaStreamDecoder(limit: Self.limit)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
        var decoded: [ReplyEvent] = []
        for _ in 0..<10 { decoded += decoder.feed(chunk) }
        decoded += decoder.feed(Array("\n{\"model\":\"m\",\"message\":{\"content\":\"ok\"},\"done\":true}\n".utf8))
        #expect(decoded.contains(.serverError(StreamLimit.message)))
        #expect(NDJSONAndOllamaDecoderTests.text(decoded) == "ok", "the next line was read")
        #expect(decoder.finish().outcome == .failed(message: StreamLimit.message))
        #expect(NDJSONLineSplitter().limit == 16 << 20)
    }
}
