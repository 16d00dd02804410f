/// Turns inline Markdown into Pango markup for a GTK label. Every piece of the model's text
/// is escaped, so a reply can never inject markup (`<span …>`, `&`) of its own; only the
/// tags built here reach Pango.
public enum PangoMarkup {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{0}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Only web and mail links become clickable; anything else stays text.
    static func isSafeLink(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://") || lowered.hasPrefix("mailto:")
    }

    public static func markup(_ inlines: [MarkdownInline]) -> String {
        inlines.map(markup).joined()
    }

    private static func markup(_ inline: MarkdownInline) -> String {
        switch inline {
        case .text(let text), .html(let text): escape(text)
        case .emphasis(let children): "<i>\(markup(children))</i>"
        case .strong(let children): "<b>\(markup(children))</b>"
        case .strikethrough(let children): "<s>\(markup(children))</s>"
        case .code(let text): "<tt>\(escape(text))</tt>"
        case .link(let url, let children):
            isSafeLink(url) ? "<a href=\"\(escape(url))\">\(markup(children))</a>" : markup(children)
        case .image(let url, let alt):
            isSafeLink(url) ? "<a href=\"\(escape(url))\">\(escape(alt.isEmpty ? url : alt))</a>" : escape(alt)
        case .lineBreak: "\n"
        case .softBreak: " "
        }
    }
}
