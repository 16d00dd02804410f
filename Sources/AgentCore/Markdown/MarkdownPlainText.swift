extension Array where Element == MarkdownBlock {
    /// The text of these blocks without their Markdown — no emphasis marks, fences or link
    /// targets — one block a line (what a screen reader should hear).
    public var plainText: String {
        compactMap { block -> String? in
            switch block {
            case .paragraph(let inlines), .heading(_, let inlines): inlines.plainText
            case .code(_, let text), .html(let text): text.trimmed
            case .list(_, _, let items): items.map(\.blocks.plainText).joined(separator: "\n")
            case .quote(let blocks): blocks.plainText
            case .table(let header, let rows):
                ([header] + rows).map { $0.map(\.plainText).joined(separator: " ") }.joined(separator: "\n")
            case .rule: nil
            }
        }.joined(separator: "\n")
    }
}

extension String {
    /// The text on one line: every run of white space, line breaks too, one space.
    public var onOneLine: String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// This Markdown as plain words on one line (a search result's snippet).
    public var markdownOnOneLine: String {
        MarkdownParser.parse(self).plainText.onOneLine
    }
}
