/// A reply as it is read aloud: its texts (the paragraphs, headings, cells and code the
/// window shows, in order), each word's place in them, and the SSML sent to the speech
/// service with an index mark before every word, so that the service says which word it
/// has reached. Words are runs of text between white space.
public struct SpokenText: Sendable, Equatable {
    /// A word: which text it is in and where, in UTF-8 bytes (Pango's indices) and in
    /// Unicode scalars (a text buffer's offsets).
    public struct Word: Sendable, Equatable {
        public let segment: Int
        public let bytes: Range<Int>
        public let scalars: Range<Int>
    }

    public let segments: [String]
    public let words: [Word]

    public init(segments: [String]) {
        self.segments = segments
        var words: [Word] = []
        for (index, segment) in segments.enumerated() {
            var byte = 0
            var scalar = 0
            var start: (byte: Int, scalar: Int)?
            for value in segment.unicodeScalars {
                if value.properties.isWhitespace {
                    if let begun = start {
                        words.append(Word(segment: index, bytes: begun.byte..<byte, scalars: begun.scalar..<scalar))
                        start = nil
                    }
                } else if start == nil {
                    start = (byte, scalar)
                }
                byte += value.utf8.count
                scalar += 1
            }
            if let begun = start {
                words.append(Word(segment: index, bytes: begun.byte..<byte, scalars: begun.scalar..<scalar))
            }
        }
        self.words = words
    }

    /// Whether there is anything to read.
    public var isEmpty: Bool { words.isEmpty }

    /// What `word` says.
    public func text(of word: Word) -> String {
        let utf8 = segments[word.segment].utf8
        return String(decoding: utf8.dropFirst(word.bytes.lowerBound).prefix(word.bytes.count), as: UTF8.self)
    }

    /// Speech Synthesis Markup: each text a paragraph (a pause between them), `<mark name="wN"/>`
    /// before word N, the text escaped for XML.
    public var ssml: String {
        var result = "<speak>"
        var next = 0
        for (index, segment) in segments.enumerated() {
            guard next < words.count, words[next].segment == index else { continue }
            result += "<p>"
            let utf8 = Array(segment.utf8)
            var position = 0
            while next < words.count, words[next].segment == index {
                let word = words[next]
                result += Self.escaped(utf8[position..<word.bytes.lowerBound])
                result += "<mark name=\"\(Self.markName(next))\"/>"
                result += Self.escaped(utf8[word.bytes])
                position = word.bytes.upperBound
                next += 1
            }
            result += "</p>"
        }
        return result + "</speak>"
    }

    static func markName(_ index: Int) -> String { "w\(index)" }

    /// The word an index mark names, when it is one of this text's.
    public func wordIndex(forMark name: String) -> Int? {
        guard name.first == "w", let index = Int(name.dropFirst()), words.indices.contains(index) else { return nil }
        return index
    }

    /// `bytes` as XML character data: `&`, `<` and `>` escaped, and the control characters XML
    /// does not allow left out.
    private static func escaped(_ bytes: ArraySlice<UInt8>) -> String {
        var result = ""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
