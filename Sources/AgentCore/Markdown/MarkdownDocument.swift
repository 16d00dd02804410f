/// A Markdown reply as blocks and inline runs, parsed by cmark-gfm and free of any toolkit:
/// the window turns it into widgets, tests read it directly.
public indirect enum MarkdownBlock: Sendable, Equatable {
    case paragraph([MarkdownInline])
    case heading(level: Int, [MarkdownInline])
    /// A fenced or indented code block; `language` from the fence's info string.
    case code(language: String?, text: String)
    /// Items are themselves blocks; `checked` is set for task-list items.
    case list(ordered: Bool, start: Int, items: [MarkdownListItem])
    case quote([MarkdownBlock])
    case table(header: [[MarkdownInline]], rows: [[[MarkdownInline]]])
    case rule
    /// Raw HTML from the model: shown as the text it is, never interpreted.
    case html(String)
}

public struct MarkdownListItem: Sendable, Equatable {
    public var blocks: [MarkdownBlock]
    public var checked: Bool?

    public init(blocks: [MarkdownBlock], checked: Bool? = nil) {
        self.blocks = blocks
        self.checked = checked
    }
}

public indirect enum MarkdownInline: Sendable, Equatable {
    case text(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    case strikethrough([MarkdownInline])
    case code(String)
    case link(url: String, [MarkdownInline])
    case image(url: String, alt: String)
    case lineBreak
    case softBreak
    /// Inline HTML from the model, kept as literal text.
    case html(String)
}

extension Array where Element == MarkdownInline {
    /// The plain text of these runs (what a screen reader or a search reads).
    public var plainText: String {
        map { inline -> String in
            switch inline {
            case .text(let text), .code(let text), .html(let text): text
            case .emphasis(let children), .strong(let children), .strikethrough(let children), .link(_, let children):
                children.plainText
            case .image(_, let alt): alt
            case .lineBreak, .softBreak: "\n"
            }
        }.joined()
    }
}
