import AgentCore

/// Long text cut into runs of a few lines, each small enough for one label. Pango (1.50)
/// lays out a label in time that grows with the square of its line count — measured here,
/// one label of 1,500 lines (64 KB) took 2.5 s — so the window never gives a label more
/// than `maxLines` lines; a taller paragraph becomes a stack of labels.
public enum LineGroups {
    public static let maxLines = 32

    /// `text` in groups of at most `maxLines` lines; the line breaks between groups dropped.
    public static func split(_ text: String, maxLines: Int = maxLines) -> [Substring] {
        var groups: [Substring] = []
        var start = text.utf8.startIndex
        var lines = 1
        var index = start
        while let newline = text.utf8[index...].firstIndex(of: UInt8(ascii: "\n")) {
            if lines == maxLines {
                groups.append(text[start..<newline])
                start = text.utf8.index(after: newline)
                lines = 1
            } else {
                lines += 1
            }
            index = text.utf8.index(after: newline)
        }
        groups.append(text[start...])
        return groups
    }

    /// A paragraph's runs in groups of at most `maxLines` lines, cut at its top-level line
    /// breaks (the breaks between groups dropped).
    public static func split(_ inlines: [MarkdownInline], maxLines: Int = maxLines) -> [[MarkdownInline]] {
        var groups: [[MarkdownInline]] = []
        var current: [MarkdownInline] = []
        var lines = 1
        for inline in inlines {
            switch inline {
            case .softBreak, .lineBreak:
                if lines == maxLines {
                    groups.append(current)
                    current = []
                    lines = 1
                } else {
                    current.append(inline)
                    lines += 1
                }
            default:
                current.append(inline)
            }
        }
        groups.append(current)
        return groups
    }
}
