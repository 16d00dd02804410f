/// Finds, in a reply that is still streaming, where its finished Markdown blocks end: after
/// a blank line that is not inside a fenced code block. Everything before that point can be
/// rendered for good; only the rest is still plain text. Incremental: each call scans just
/// the text added since the last one.
public struct MarkdownBlockSplitter: Sendable {
    /// The end (UTF-8 offset) of the finished blocks.
    public private(set) var boundary = 0
    private var lineStart = 0
    private var fence: (marker: UInt8, length: Int)?
    private var previousLineBlank = false

    public init() {}

    /// Advances over `text` (the same reply, grown) and returns the new boundary.
    public mutating func advance(_ text: String) -> Int {
        let utf8 = Array(text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: min(lineStart, text.utf8.count))...])
        var offset = lineStart
        var index = 0
        while let newline = utf8[index...].firstIndex(of: 0x0A) {
            let line = utf8[index..<newline]
            handle(line, endingAt: offset + (newline - index) + 1)
            offset += newline - index + 1
            index = newline + 1
        }
        lineStart = offset
        return boundary
    }

    private mutating func handle(_ line: ArraySlice<UInt8>, endingAt end: Int) {
        let trimmed = line.drop { $0 == 0x20 }
        let indent = line.count - trimmed.count
        if indent <= 3, let first = trimmed.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
            let run = trimmed.prefix { $0 == first }.count
            if run >= 3 {
                if let open = fence {
                    if open.marker == first, run >= open.length, trimmed.dropFirst(run).allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
                        fence = nil
                    }
                } else {
                    fence = (first, run)
                }
                previousLineBlank = false
                return
            }
        }
        let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        if blank && fence == nil && !previousLineBlank {
            boundary = end
        }
        previousLineBlank = blank
    }
}
