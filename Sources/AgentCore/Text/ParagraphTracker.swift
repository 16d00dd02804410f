/// Splits a growing reply into paragraphs (at blank lines) incrementally, so a view can
/// lay out only the last paragraph on each update instead of the whole reply: the cost
/// of an update stays with the paragraph being written, however long the reply grows.
public struct ParagraphTracker: Sendable {
    /// The paragraphs so far, without their separating blank lines.
    public private(set) var paragraphs: [String] = []
    /// Where the last paragraph starts in the text (UTF-8 offset).
    private var lastParagraphStart = 0
    private var knownLength = 0

    public init() {}

    /// Brings the paragraphs up to date with `text`, which normally extends the text of the
    /// last call. Returns the index of the first paragraph that changed (nil: none did).
    public mutating func update(with text: String) -> Int? {
        let utf8 = text.utf8
        if utf8.count < knownLength {
            self = ParagraphTracker()  // not an extension of the old text: start over
        }
        guard utf8.count != knownLength || paragraphs.isEmpty else { return nil }
        knownLength = utf8.count
        let firstChanged = max(0, paragraphs.count - 1)
        if !paragraphs.isEmpty { paragraphs.removeLast() }
        let tail = utf8[utf8.index(utf8.startIndex, offsetBy: lastParagraphStart)...]
        var pieceStart = tail.startIndex
        var offset = lastParagraphStart
        var pieceStartOffset = offset
        var index = tail.startIndex
        var previous: UInt8 = 0
        while index < tail.endIndex {
            let byte = tail[index]
            let next = tail.index(after: index)
            offset += 1
            if byte == 0x0A && previous == 0x0A {
                // A blank line ends the paragraph before it.
                let end = tail.index(before: index)
                paragraphs.append(Self.trimmed(tail[pieceStart..<end]))
                pieceStart = next
                pieceStartOffset = offset
                previous = 0
            } else {
                previous = byte
            }
            index = next
        }
        paragraphs.append(Self.trimmed(tail[pieceStart...]))
        lastParagraphStart = pieceStartOffset
        return firstChanged
    }

    private static func trimmed(_ bytes: Substring.UTF8View) -> String {
        var piece = bytes
        while piece.first == 0x0A { piece = piece.dropFirst() }
        while piece.last == 0x0A { piece = piece.dropLast() }
        return String(Substring(piece))
    }
}
