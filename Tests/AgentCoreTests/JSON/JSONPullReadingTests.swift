@testable import AgentCore
import Testing

/// Reading JSON without building it (`JSONParser.read`, `members`, `skipValue`) accepts and
/// refuses exactly what `JSONParser.parse` does, and a streamed chunk read that way is the
/// chunk its members say, escapes, duplicates and odd shapes included.
@Suite("JSON read in place")
struct JSONPullReadingTests {
    @Test("Skipping a value refuses what parsing refuses", arguments: [
        #"{"a": [1, 2.5e3, -0, true, false, null, "s\"\u00e9"], "b": {"c": {}}, "d": []}"#,
        #"  "just a string"  "#, "42", #"{"k\u0065y": "v"}"#,
        #"{"a": 1,}"#, #"{"a" 1}"#, #"[1 2]"#, #"{"a": "\x"}"#, "\"tab\there\"", #"{"a": tru}"#,
        #"{"a": 1} trailing"#, #"{"a": "unterminated}"#, "", "{", #"{"a": 01}"#,
        "{\"a\tb\": 1}", #"{"a\xb": 1}"#, #"{"unterminated"#, #"{"""#, #"{"\"": 1}"#, "{\"caf\u{E9}\": 1}",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ])
    func skipMatchesParse(text: String) {
        let parsed = (try? JSONParser.parse(text)) != nil
        let skipped = (try? JSONParser.read(Array(text.utf8)) { _ in }) != nil
        #expect(skipped == parsed)
    }

    @Test("A chunk read in place: the fields wanted, escaped names, the later of duplicates")
    func chunkFields() throws {
        let text = #"{"id":"c","object":"chat.completion.chunk","created":1733241600,"model":"old","model":"m","#
            + #""choices":[{"index":0,"delta":{"role":"assistant","cont\u0065nt":"Hi","reasoning":"r"},"finish_reason":null},"#
            + #"{"delta":{"content":"second choice"}}],"usage":{"prompt_tokens":3,"completion_tokens":5}}"#
        let chunk = try #require(try ChatCompletionChunk(json: Array(text.utf8)))
        #expect(chunk.model == "m")
        #expect(chunk.created == 1_733_241_600)
        #expect(chunk.hasChoices)
        #expect(chunk.content == "Hi")
        #expect(chunk.reasoning == "r")
        #expect(chunk.finishReason == nil)
        #expect(chunk.usage?.promptTokens == 3 && chunk.usage?.completionTokens == 5)
    }

    @Test("Member names are checked as strings are, and one with escapes reads as its text")
    func memberNames() throws {
        let value = try JSONParser.parse(#"{"k\u0065y": 1, "a\"b": 2, "\u00e9t\u00e9": 3, "plain": 4}"#)
        #expect(value["key"]?.intValue == 1)
        #expect(value["a\"b"]?.intValue == 2)
        #expect(value["été"]?.intValue == 3)
        #expect(value["plain"]?.intValue == 4)
        var names: [String] = []
        var matched: [Bool] = []
        try JSONParser.read(Array(#"{"k\u0065y": 1, "key": 2, "kex": 3}"#.utf8)) { parser throws(JSONParser.SyntaxError) in
            try parser.members { _, key in
                names.append(key.text)
                matched.append(key.is("key"))
            }
        }
        #expect(names == ["key", "key", "kex"])
        #expect(matched == [true, true, false])
    }

    @Test("Choices of other shapes: none, not an array, a first choice that is not an object; a later choices list wins")
    func chunkShapes() throws {
        let empty = try #require(try ChatCompletionChunk(json: Array(#"{"choices":[]}"#.utf8)))
        #expect(!empty.hasChoices)
        let notArray = try #require(try ChatCompletionChunk(json: Array(#"{"choices":{"delta":{"content":"x"}}}"#.utf8)))
        #expect(!notArray.hasChoices && notArray.content == nil)
        let oddFirst = try #require(try ChatCompletionChunk(json: Array(#"{"choices":[7]}"#.utf8)))
        #expect(oddFirst.hasChoices && oddFirst.content == nil)
        let twice = try #require(try ChatCompletionChunk(json: Array(#"{"choices":[{"delta":{"content":"a"}}],"choices":[{"finish_reason":"stop"}]}"#.utf8)))
        #expect(twice.content == nil && twice.finishReason == "stop")
        let oddTypes = try #require(try ChatCompletionChunk(json: Array(
            #"{"model":7,"created":"yesterday","choices":[{"delta":{"content":["x"],"reasoning":null},"finish_reason":false}]}"#.utf8)))
        #expect(oddTypes.model == nil && oddTypes.created == nil && oddTypes.hasChoices)
        #expect(oddTypes.content == nil && oddTypes.reasoning == nil && oddTypes.finishReason == nil)
        #expect(throws: JSONParser.SyntaxError.self) { try ChatCompletionChunk(json: Array(#"{"model":[1,]}"#.utf8)) }
        #expect(throws: JSONParser.SyntaxError.self) { try ChatCompletionChunk(json: Array(#"{"created":-}"#.utf8)) }
        #expect(try ChatCompletionChunk(json: Array(#"["not", "an object"]"#.utf8)) == nil)
        #expect(throws: JSONParser.SyntaxError.self) { try ChatCompletionChunk(json: Array(#"{"choices":[{"delta":}]}"#.utf8)) }
    }
}
