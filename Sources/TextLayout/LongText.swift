/// How the window shows a very long reply: a model that rambles for megabytes must not
/// freeze the transcript. Up to `labelLimit` a reply is rendered (Markdown, in labels);
/// beyond it, it is shown as plain text in a text view, which lays out its lines a few at a
/// time — at most its first `displayLimit`. The text itself is kept whole (copy, export,
/// storage). Measured (docs/reliability.md): 64 KB laid out in labels at once held the
/// main loop 0.2–0.6 s.
public enum LongText {
    /// The longest reply rendered as Markdown, in UTF-8 bytes.
    public static let labelLimit = 32 * 1024
    /// The most a message row shows, in UTF-8 bytes.
    public static let displayLimit = 64 * 1024

    /// How much new text a streaming reply's row takes on per frame: a flood (a server that
    /// sends 60 KB at once) is shown over a few frames instead of in one long one. Far above
    /// what a model writes (2,000 tokens/s is about 130 bytes a frame).
    public static let revealPerFrame = 2 * 1024

    /// The start of `text` to show — all of it when it fits — never inside a character, and
    /// ending at a line break near the limit when there is one and `atLineBreak`.
    public static func head(of text: String, limit: Int = displayLimit, atLineBreak: Bool = true) -> (text: Substring, isCut: Bool) {
        let utf8 = text.utf8
        guard utf8.count > limit else { return (text[...], false) }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, !isCharacterStart(utf8[end]) { end = utf8.index(before: end) }
        guard atLineBreak else { return (text[..<end], true) }
        let window = utf8.index(end, offsetBy: -min(4096, utf8.distance(from: utf8.startIndex, to: end)))
        if let newline = utf8[window..<end].lastIndex(of: UInt8(ascii: "\n")) { end = newline }
        return (text[..<end], true)
    }

    private static func isCharacterStart(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
}
