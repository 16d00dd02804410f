import AgentCore
import Testing

/// The WHATWG HTML standard's "Parsing an event stream", rule by rule. Every case is
/// parsed twice — the whole stream in one chunk, and one byte per chunk — and both must
/// give the same events.
@Suite("SSE parser: WHATWG event-stream rules")
struct SSEParserTests {
    enum Feeding: CaseIterable { case whole, byteByByte }

    static func parse(_ stream: [UInt8], _ feeding: Feeding) -> [SSEEvent] {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        switch feeding {
        case .whole:
            parser.feed(stream) { events.append($0) }
        case .byteByByte:
            for byte in stream { parser.feed([byte]) { events.append($0) } }
        }
        parser.finish()
        return events
    }

    static func parse(_ text: String, _ feeding: Feeding) -> [SSEEvent] {
        parse(Array(text.utf8), feeding)
    }

    @Test(arguments: Feeding.allCases)
    func dataLineDispatchesAtBlankLine(_ feeding: Feeding) {
        #expect(Self.parse("data: hello\n\n", feeding) == [SSEEvent(data: "hello")])
    }

    @Test(arguments: Feeding.allCases)
    func spaceAfterColonIsOptionalAndOnlyOneIsRemoved(_ feeding: Feeding) {
        let events = Self.parse("data:test\n\ndata: test\n\ndata:  test\n\n", feeding)
        #expect(events.map(\.data) == ["test", "test", " test"])
    }

    @Test(arguments: Feeding.allCases)
    func severalDataLinesAreJoinedWithLineFeeds(_ feeding: Feeding) {
        let events = Self.parse("data: YHOO\ndata: +2\ndata: 10\n\n", feeding)
        #expect(events == [SSEEvent(data: "YHOO\n+2\n10")])
    }

    @Test("The standard's example: empty data, a lone newline, an unterminated block", arguments: Feeding.allCases)
    func emptyDataLines(_ feeding: Feeding) {
        let events = Self.parse("data\n\ndata\ndata\n\ndata:", feeding)
        #expect(events.map(\.data) == ["", "\n"])
    }

    @Test(arguments: Feeding.allCases)
    func commentsAreIgnored(_ feeding: Feeding) {
        let events = Self.parse(": test stream\n\n:\n: keep-alive\ndata: first\n\n", feeding)
        #expect(events == [SSEEvent(data: "first")])
    }

    @Test(arguments: Feeding.allCases)
    func eventFieldSetsTheTypeForOneEventOnly(_ feeding: Feeding) {
        let events = Self.parse("event: add\ndata: 73857293\n\ndata: plain\n\nevent:\ndata: empty type\n\n", feeding)
        #expect(events.map(\.type) == ["add", "message", "message"])
        #expect(events.map(\.data) == ["73857293", "plain", "empty type"])
    }

    @Test(arguments: Feeding.allCases)
    func blockWithoutDataDispatchesNothingAndResetsTheType(_ feeding: Feeding) {
        let events = Self.parse("event: error\n\ndata: after\n\n", feeding)
        #expect(events == [SSEEvent(type: "message", data: "after")])
    }

    @Test(arguments: Feeding.allCases)
    func idSetsTheLastEventIDWhichCarriesOver(_ feeding: Feeding) {
        let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
        let events = Self.parse(stream, feeding)
        #expect(events == [
            SSEEvent(data: "first event", lastEventID: "1"),
            SSEEvent(data: "second event", lastEventID: ""),
            SSEEvent(data: " third event", lastEventID: ""),
        ])
        let carried = Self.parse("id: 7\ndata: a\n\ndata: b\n\n", feeding)
        #expect(carried.map(\.lastEventID) == ["7", "7"])
    }

    @Test(arguments: Feeding.allCases)
    func idContainingNullIsIgnored(_ feeding: Feeding) {
        let events = Self.parse(Array("id: 1\ndata: a\n\nid: 2".utf8) + [0] + Array("x\ndata: b\n\n".utf8), feeding)
        #expect(events.map(\.lastEventID) == ["1", "1"])
    }

    @Test(arguments: Feeding.allCases)
    func retryTakesOnlyAsciiDigits(_ feeding: Feeding) {
        var parser = SSEParser()
        let stream = Array("retry: 1500\n\nretry: 15x0\n\nretry: -3\n\nretry:\n\n".utf8)
        switch feeding {
        case .whole: parser.feed(stream) { _ in }
        case .byteByByte: for byte in stream { parser.feed([byte]) { _ in } }
        }
        #expect(parser.reconnectionTime == 1500)
    }

    @Test("LF, CR and CRLF all end lines, mixed in one stream", arguments: Feeding.allCases)
    func lineEndings(_ feeding: Feeding) {
        let events = Self.parse("data: lf\n\ndata: cr\r\rdata: crlf\r\n\r\ndata: a\r\ndata: b\rdata: c\n\n", feeding)
        #expect(events.map(\.data) == ["lf", "cr", "crlf", "a\nb\nc"])
    }

    @Test("CR at the end of one chunk and LF at the start of the next are one line end")
    func crlfSplitAcrossChunks() {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        parser.feed(Array("data: x\r".utf8)) { events.append($0) }
        parser.feed(Array("\ndata: y\r\n\r\n".utf8)) { events.append($0) }
        #expect(events.map(\.data) == ["x\ny"])
    }

    @Test(arguments: Feeding.allCases)
    func fieldWithoutColonIsANameWithEmptyValue(_ feeding: Feeding) {
        let events = Self.parse("data\ndata: x\n\n", feeding)
        #expect(events.map(\.data) == ["\nx"])
    }

    @Test(arguments: Feeding.allCases)
    func unknownAndMiscasedFieldsAreIgnored(_ feeding: Feeding) {
        let events = Self.parse("foo: bar\nData: nope\nEVENT: nope\ndata: kept\n\n", feeding)
        #expect(events == [SSEEvent(data: "kept")])
    }

    @Test(arguments: Feeding.allCases)
    func colonsInTheValueAreKept(_ feeding: Feeding) {
        #expect(Self.parse("data: a: b :c\n\n", feeding).map(\.data) == ["a: b :c"])
    }

    @Test("A leading byte-order mark is skipped, once", arguments: Feeding.allCases)
    func byteOrderMark(_ feeding: Feeding) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(Self.parse(bom + Array("data: a\n\n".utf8), feeding).map(\.data) == ["a"])
        // A second BOM is part of the next line's field name, which then matches nothing.
        let twice = bom + bom + Array("data: a\n\ndata: b\n\n".utf8)
        #expect(Self.parse(twice, feeding).map(\.data) == ["b"])
        // Bytes that start like a BOM but are not one stay content.
        let notBOM: [UInt8] = Array("data: ".utf8) + [0xEF, 0xBB] + Array("\n\n".utf8)
        #expect(Self.parse(notBOM, feeding).map(\.data) == ["\u{FFFD}"])
    }

    @Test("The stream ends: an unterminated event and an unterminated line are discarded", arguments: Feeding.allCases)
    func endOfStreamDiscardsPendingData(_ feeding: Feeding) {
        #expect(Self.parse("data: complete\n\ndata: pending\n", feeding).map(\.data) == ["complete"])
        #expect(Self.parse("data: complete\n\ndata: no end of line", feeding).map(\.data) == ["complete"])
    }

    @Test("UTF-8 characters survive any split; invalid bytes become U+FFFD", arguments: Feeding.allCases)
    func utf8(_ feeding: Feeding) {
        #expect(Self.parse("data: héllo 👋 世界\n\n", feeding).map(\.data) == ["héllo 👋 世界"])
        let invalid: [UInt8] = Array("data: a".utf8) + [0xFF, 0xC3] + Array("b\n\n".utf8)
        #expect(Self.parse(invalid, feeding).map(\.data) == ["a\u{FFFD}\u{FFFD}b"])
    }

    @Test("Splitting a stream at random places never changes its events")
    func randomSplits() {
        let stream = Array(("\u{FEFF}: comment\r\nevent: a\ndata: ünï\rdata: 😀 code\n\nid: 9\r\n" +
                            "data: [DONE]\r\n\r\nretry: 5\n\ndata\n\n").utf8)
        let expected = Self.parse(stream, .whole)
        #expect(expected.count == 3)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var parser = SSEParser()
            var events: [SSEEvent] = []
            var index = 0
            while index < stream.count {
                let length = Int.random(in: 1...7, using: &generator)
                let end = min(stream.count, index + length)
                parser.feed(Array(stream[index..<end])) { events.append($0) }
                index = end
            }
            #expect(events == expected)
        }
    }

    @Test("Events kept past the call keep their own data; after a large event the small ones do not carry its room")
    func keptEvents() {
        var parser = SSEParser()
        var kept: [SSEEvent] = []
        let large = String(repeating: "x", count: 200_000)
        parser.feed(Array("data: \(large)\n\ndata: one\n\ndata: two\n\n".utf8)) { kept.append($0) }
        parser.feed(Array("data: three\n\n".utf8)) { kept.append($0) }
        #expect(kept.map(\.data) == [large, "one", "two", "three"])
        #expect(kept.dropFirst().allSatisfy { $0.dataBytes.capacity < 64 * 1024 })
    }
}
