/// Separates thinking written inline — `<think>…</think>` at the very start of a reply's
/// content, as DeepSeek-R1 and Qwen3 write it when the server leaves it in — from the
/// answer. Pure, fed the content as it streams in pieces split anywhere: a marker cut
/// across pieces ("<thi" + "nk>") is held back until the next piece says what it is.
/// Content that does not open with `<think>` (white space aside) is all answer, as is a
/// `<think>` anywhere later. White space right after either marker is dropped.
struct ThinkTagSplitter: Sendable {
    enum Piece: Equatable {
        case reasoning(String)
        case answer(String)
    }

    private enum Phase {
        /// Nothing but white space so far: the content may yet open with `<think>`.
        case opening
        case thinkingStart
        case thinking
        case answerStart
        case answering
    }

    static let openMarker = "<think>"
    static let closeMarker = "</think>"

    private var phase = Phase.opening
    /// Content not yet told apart: the start of a possible marker.
    private var held = ""

    /// Everything from here on is answer, as it comes: nothing is held back or split.
    var isAnswering: Bool { phase == .answering }

    /// The pieces `text` completes, in order.
    mutating func feed(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(held + text)
        held = ""
        while true {
            switch phase {
            case .opening:
                let trimmed = rest.drop { $0.isWhitespace }
                if trimmed.hasPrefix(Self.openMarker) {
                    phase = .thinkingStart
                    rest = trimmed.dropFirst(Self.openMarker.count)
                } else if Self.openMarker.hasPrefix(trimmed) {
                    held = String(rest)
                    return pieces
                } else {
                    phase = .answering
                }
            case .thinkingStart, .answerStart:
                rest = rest.drop { $0.isWhitespace }
                guard !rest.isEmpty else { return pieces }
                phase = phase == .thinkingStart ? .thinking : .answering
            case .thinking:
                if let close = rest.firstRange(of: Self.closeMarker) {
                    if close.lowerBound > rest.startIndex { pieces.append(.reasoning(String(rest[..<close.lowerBound]))) }
                    rest = rest[close.upperBound...]
                    phase = .answerStart
                } else {
                    let kept = Self.markerStartLength(atEndOf: rest)
                    if rest.count > kept { pieces.append(.reasoning(String(rest.dropLast(kept)))) }
                    held = String(rest.suffix(kept))
                    return pieces
                }
            case .answering:
                if !rest.isEmpty { pieces.append(.answer(String(rest))) }
                return pieces
            }
        }
    }

    /// The content ended: what was held back, as what it turned out to be.
    mutating func finish() -> [Piece] {
        defer { held = "" }
        guard !held.isEmpty else { return [] }
        switch phase {
        case .opening: return [.answer(held)]
        case .thinking: return [.reasoning(held)]
        case .thinkingStart, .answerStart, .answering: return []
        }
    }

    /// How many characters at the end of `text` could begin `</think>`.
    private static func markerStartLength(atEndOf text: Substring) -> Int {
        for length in stride(from: min(closeMarker.count - 1, text.count), to: 0, by: -1)
        where text.hasSuffix(closeMarker.prefix(length)) {
            return length
        }
        return 0
    }
}
