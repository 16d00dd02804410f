import FoundationEssentials

/// A chat's automatic title: the first line of its first prompt as it reads, without
/// Markdown's markers ("## Release checklist" → "Release checklist"), cut at a word near 48
/// characters.
public enum ChatTitle {
    public static var untitled: String { tr("New Chat") }

    /// The title of a chat that starts with `message`: its text, or the name of its first
    /// file when it is only files.
    public static func make(for message: ChatMessage) -> String {
        make(from: message.text.isEmpty ? message.attachments.first?.name ?? "" : message.text)
    }

    public static func make(from prompt: String) -> String {
        let line = MarkdownParser.parse(prompt).lazy.compactMap(firstLine).first ?? ""
        let trimmed = line.trimmedSpaces
        guard trimmed.count > 48 else { return trimmed.isEmpty ? untitled : trimmed }
        let cut = trimmed.prefix(48)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord.trimmedSpaces + "…"
    }

    /// The first line of text a block shows, if it shows any.
    private static func firstLine(of block: MarkdownBlock) -> String? {
        let text: String? = switch block {
        case .paragraph(let inlines), .heading(_, let inlines): inlines.plainText
        case .code(_, let code): code
        case .html(let html): html
        case .list(_, _, let items): items.lazy.flatMap(\.blocks).compactMap(firstLine).first
        case .quote(let blocks): blocks.lazy.compactMap(firstLine).first
        case .table(let header, _): header.map(\.plainText).joined(separator: " ")
        case .rule: nil
        }
        return text?.split(whereSeparator: \.isNewline).first.map(String.init).flatMap { $0.trimmedSpaces.isEmpty ? nil : $0 }
    }
}
