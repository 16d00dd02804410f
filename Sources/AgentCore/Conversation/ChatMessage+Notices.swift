/// A reply's text as the model wrote it, without the notices Agent put in it.
extension ChatMessage {
    /// Adds `notice` (Agent's words, such as a server's error) to the end of the text and
    /// remembers where it sits.
    public mutating func appendNotice(_ notice: String) {
        let start = text.utf8.count
        text += notice
        notices.append(start..<text.utf8.count)
    }

    /// The whole text without Agent's notices: what the model said.
    public var modelText: String {
        notices.isEmpty ? text : modelWords(from: 0, to: text.utf8.count)
    }

    /// The model's words between UTF-8 offsets `start` and `end` of the text (a round of a
    /// reply that called tools): that stretch without the notices in it.
    func modelWords(from start: Int, to end: Int) -> String {
        let utf8 = text.utf8
        var words: [UInt8] = []
        var position = start
        for notice in notices where notice.upperBound > position && notice.lowerBound < end {
            if notice.lowerBound > position { words += utf8.bytes(position, notice.lowerBound) }
            position = notice.upperBound
        }
        if end > position { words += utf8.bytes(position, end) }
        return String(decoding: words, as: UTF8.self)
    }

    /// The notices as stored: `[[start, end], …]` in JSON; nil when there are none.
    static func noticesJSONText(_ notices: [Range<Int>]) -> String? {
        notices.isEmpty ? nil : noticesJSON(notices).serialized
    }

    static func noticesJSON(_ notices: [Range<Int>]) -> JSONValue {
        .array(notices.map { .array([.number(Double($0.lowerBound)), .number(Double($0.upperBound))]) })
    }

    /// Reads stored notices back, keeping those that fit in `text` in order and dropping the
    /// rest: a hand-edited file must not cut a character in two or reach past the end.
    static func notices(from json: JSONValue?, in text: String) -> [Range<Int>] {
        let utf8 = text.utf8
        var notices: [Range<Int>] = []
        for pair in json?.arrayValue ?? [] {
            guard let bounds = pair.arrayValue, bounds.count == 2, let start = bounds[0].intValue, let end = bounds[1].intValue,
                  start >= (notices.last?.upperBound ?? 0), start < end, end <= utf8.count,
                  utf8.isBoundary(start), utf8.isBoundary(end) else { continue }
            notices.append(start..<end)
        }
        return notices
    }

    static func notices(fromJSONText text: String?, in messageText: String) -> [Range<Int>] {
        guard let text else { return [] }
        return notices(from: try? JSONParser.parse(text), in: messageText)
    }
}

private extension String.UTF8View {
    func bytes(_ start: Int, _ end: Int) -> SubSequence {
        let clampedStart = Swift.min(Swift.max(start, 0), count)
        let clampedEnd = Swift.min(Swift.max(end, clampedStart), count)
        return self[index(startIndex, offsetBy: clampedStart)..<index(startIndex, offsetBy: clampedEnd)]
    }

    /// Whether UTF-8 offset `offset` falls between Unicode scalars, not inside one's bytes.
    func isBoundary(_ offset: Int) -> Bool {
        guard offset < count else { return offset == count }
        return (self[index(startIndex, offsetBy: offset)] & 0xC0) != 0x80
    }
}
