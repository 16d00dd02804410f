/// What a screen reader is told when a reply finishes: who wrote it and how it starts, in
/// plain words (its Markdown taken out) and short enough to hear out.
public enum ReplyAnnouncement {
    /// How much of the reply is told, in characters.
    public static let previewLength = 200

    public static func text(for reply: ChatMessage) -> String {
        // Only the start is parsed: a reply can be megabytes long, and this runs as it ends.
        let preview = preview(of: MarkdownParser.parse(String(reply.text.prefix(previewLength * 20))).plainText)
        if let model = reply.model { return tr("Reply from %s finished: %s", model, preview) }
        return tr("Reply finished: %s", preview)
    }

    /// `text` on one line, cut after the last whole word within `previewLength`.
    static func preview(of text: String) -> String {
        let flat = text.onOneLine
        guard flat.count > previewLength else { return flat }
        let head = flat.prefix(previewLength)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return String(cut) + "…"
    }
}
