import AgentCore
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" { "s": "x", "n": -12.5e1, "i": 0, "t": true, "f": false, "z": null, "a": [1, [], {}], "o": {"k": "v"} } "#)
        #expect(value["s"] == .string("x"))
        #expect(value["n"] == .number(-125))
        #expect(value["i"] == .number(0))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["z"] == .null)
        #expect(value["a"] == .array([.number(1), .array([]), .object([])]))
        #expect(value["o"]?["k"] == .string("v"))
        #expect(value.objectValue?.map(\.key) == ["s", "n", "i", "t", "f", "z", "a", "o"], "member order is kept")
    }

    @Test("Numbers read as Double reads their text: integers (read digit by digit) and the rest",
          arguments: ["0", "-0", "7", "-42", "1733241600", "999999999999999", "-999999999999999",
                      "9999999999999999", "12345678901234567890", "0.5", "-1.25e3", "1E-7", "2e+2"])
    func numbers(text: String) throws {
        let value = try JSONParser.parse(text)
        let expected = try #require(Double(text))
        #expect(value == .number(expected))
        if case .number(let number) = value { #expect(number.sign == expected.sign) }
    }

    @Test func stringEscapes() throws {
        let value = try JSONParser.parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \uD83D\uDE00 \u4e16""#)
        #expect(value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t é 😀 世"))
        #expect(try JSONParser.parse(#""\uD800 lone""#) == .string("\u{FFFD} lone"))
        #expect(try JSONParser.parse(#""\uDC00""#) == .string("\u{FFFD}"))
    }

    @Test func invalidUTF8InStringsBecomesReplacementCharacters() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0x22]
        #expect(try JSONParser.parse(bytes) == .string("a\u{FFFD}b"))
    }

    @Test("What is not JSON is refused", arguments: [
        "", " ", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "+1", "tru", "nul",
        "\"unterminated", "\"bad \\x escape\"", "\"short \\u12\"", "[1] 2", "{'a': 1}", "\"tab\there\"", "NaN",
        "{\"a\tb\": 1}", "{\"a\\xb\": 1}", "{\"a", "{\"a\\u12\": 1}", "{\"a\\", "{\"\\\"",
    ])
    func rejects(text: String) {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("A text cut short anywhere is refused at its end: the input ran out, it was not wrong")
    func cutShortFailsAtTheEnd() {
        let text = Array(#"{"s":"x\u00e9\uD83D\uDE00 é","n":-12.5e+1,"t":true,"f":false,"z":null,"a":[1,{}]}"#.utf8)
        for length in 1..<text.count {
            let cut = Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(Array(text[..<length])) }
            guard case .failure(let error) = cut else {
                Issue.record("cut after \(length) bytes: read as \(cut)")
                continue
            }
            #expect(error.offset == length, "cut after \(length) bytes: \(error)")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try JSONParser.parse(fine) }
    }

    @Test func serializationRoundTrips() throws {
        let text = #"{"b":[1,2.5,-3,true,false,null],"a":"line\nquote\" tab\t \u0001 é","c":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value.serialized == text.replacingOccurrences(of: "é", with: "é"))
        #expect(try JSONParser.parse(value.serialized) == value)
    }
}
