@testable import AgentCore
import Testing

/// A chunk read through the template of the chunk before is exactly the chunk read whole:
/// the same fields, the same refusals, whatever differs from the template and wherever.
@Suite("Streamed chunks read through a template")
struct ChatCompletionChunkTemplateTests {
    /// Each text read through one template (in order) and read whole: the same chunk, or the same refusal.
    private static func expectSameAsWhole(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var template = ChatCompletionChunkTemplate()
        for text in texts {
            let bytes = Array(text.utf8)
            let throughTemplate = Result { () throws(JSONParser.SyntaxError) in try template.chunk(in: bytes) }
            let whole = Result { () throws(JSONParser.SyntaxError) in try ChatCompletionChunk(json: bytes) }
            #expect(throughTemplate == whole, "\(text)", sourceLocation: sourceLocation)
            // Byte for byte: String's == would let a normalised spelling pass.
            let contents = [throughTemplate, whole].map { (try? $0.get())?.flatMap { $0.content }.map { Array($0.utf8) } }
            #expect(contents[0] == contents[1], "\(text)", sourceLocation: sourceLocation)
        }
    }

    private static func token(_ content: String, finish: String = "null") -> String {
        #"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1733241600,"model":"m","#
            + #""choices":[{"index":0,"delta":{"content":\#(content)},"finish_reason":\#(finish)}]}"#
    }

    @Test("Tokens alike but for their text: escapes, invalid UTF-8 repaired, empty, and not strings at all")
    func contents() {
        Self.expectSameAsWhole([
            Self.token(#""Hi""#), Self.token(#"" there""#), Self.token(#""a\"b\u00e9\n\ud83d\ude00""#), Self.token(#""""#),
            Self.token("\"caf\u{E9}\""), Self.token("\"tab\there\""), Self.token(#""\x""#), Self.token(#""unterminated"#),
            Self.token("null"), Self.token("7"), Self.token(#"["x"]"#), Self.token(#""a" "b""#), Self.token(#""again""#),
        ])
        var template = ChatCompletionChunkTemplate()
        _ = try? template.chunk(in: Array(Self.token(#""ok""#).utf8))
        // "@@" is nowhere else in the chunk: its two bytes become an invalid UTF-8 sequence.
        var bytes = Array(Self.token(#""@@""#).utf8)
        let marker = bytes.firstIndex(of: UInt8(ascii: "@")) ?? 0
        bytes.replaceSubrange(marker..<(marker + 2), with: [0xC3, 0x28])
        let repaired = try? template.chunk(in: bytes)
        #expect(repaired?.content == "\u{FFFD}(")
        #expect(repaired == (try? ChatCompletionChunk(json: bytes)))
    }

    @Test("A token's chunk fits the template of the one before: its string found where the other's lay, nothing else fits")
    func fits() throws {
        var template = ChatCompletionChunkTemplate()
        _ = try template.chunk(in: Array(Self.token(#""Hi""#).utf8))
        let next = Array(Self.token(#"" there\n""#).utf8)
        let found = try #require(template.content(in: next))
        #expect(found.text == " there\n")
        #expect(Array(next[found.range]) == Array(#"" there\n""#.utf8))
        #expect(template.content(in: Array(Self.token(#""x""#, finish: #""stop""#).utf8)) == nil)
        #expect(template.content(in: Array(Self.token("null").utf8)) == nil)
        #expect(template.content(in: Array((Self.token(#""x""#) + " ").utf8)) == nil)
        _ = try template.chunk(in: Array(#"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5}}"#.utf8))
        #expect(template.content(in: next) != nil, "a chunk without content between tokens leaves the template")
    }

    @Test("Anything else that differs is read whole: the finish, the id, trailing data, a usage chunk between tokens")
    func otherDifferences() {
        Self.expectSameAsWhole([
            Self.token(#""a""#), Self.token(#""b""#, finish: #""stop""#), Self.token(#""c""#),
            Self.token(#""d""#).replacingOccurrences(of: "chatcmpl-1", with: "chatcmpl-2"), Self.token(#""e""#),
            Self.token(#""f""#) + " ", Self.token(#""g""#) + "}", String(Self.token(#""h""#).dropLast()),
            #"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5}}"#, Self.token(#""i""#),
            #"["not", "an object"]"#, Self.token(#""j""#),
        ])
    }

    @Test("Duplicates: the content kept is the one the template follows; a later choices list empties it")
    func duplicates() {
        Self.expectSameAsWhole([
            #"{"choices":[{"delta":{"content":"a","content":"b"}}]}"#,
            #"{"choices":[{"delta":{"content":"a","content":"c"}}]}"#,
            #"{"choices":[{"delta":{"content":"z","content":"c"}}]}"#,
            #"{"choices":[{"delta":{"content":"a"}}],"choices":[]}"#,
            #"{"choices":[{"delta":{"content":"b"}}],"choices":[]}"#,
            #"{"choices":[{"delta":{"cont\u0065nt":"a"}}]}"#,
            #"{"choices":[{"delta":{"cont\u0065nt":"b"}}]}"#,
            #"{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"second"}}]}"#,
            #"{"choices":[{"delta":{"content":"b"}},{"delta":{"content":"second"}}]}"#,
        ])
    }

    @Test("Every one-byte change of a token's chunk, after the chunk itself, reads as it would whole")
    func everyByteChanged() {
        let base = Array(Self.token(#""Hello""#).utf8)
        let replacements = Array(#""\{}[],: a0n"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
        var checked = 0
        for position in base.indices {
            for replacement in replacements where replacement != base[position] {
                var changed = base
                changed[position] = replacement
                var template = ChatCompletionChunkTemplate()
                _ = try? template.chunk(in: base)
                let throughTemplate = Result { () throws(JSONParser.SyntaxError) in try template.chunk(in: changed) }
                let whole = Result { () throws(JSONParser.SyntaxError) in try ChatCompletionChunk(json: changed) }
                #expect(throughTemplate == whole, "byte \(position) as \(replacement)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
