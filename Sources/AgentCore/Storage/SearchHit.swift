import FoundationEssentials

/// A search result: a chat whose title matched, or a message (with a snippet of its text,
/// on one line, its Markdown taken out), with the words the search matched marked.
public struct SearchHit: Sendable, Equatable {
    public let chatID: UUID
    public let chatTitle: String
    public let messageID: UUID?
    /// The title for a title's hit; else the words around the match.
    public let snippet: String
    /// Where `snippet` holds the words the search matched, in UTF-8 bytes (as Pango counts).
    public let matches: [Range<Int>]

    public init(chatID: UUID, chatTitle: String, messageID: UUID?, snippet: String, matches: [Range<Int>] = []) {
        self.chatID = chatID
        self.chatTitle = chatTitle
        self.messageID = messageID
        self.snippet = snippet
        self.matches = matches
    }

    /// Private-use characters SQLite's `highlight()` and `snippet()` put around each match,
    /// as their two SQL arguments: they pass through the Markdown taken out of a snippet as
    /// text, and no message is expected to hold them.
    static let marks = "'\u{E000}', '\u{E001}'"
    private static let (open, close): (Unicode.Scalar, Unicode.Scalar) = ("\u{E000}", "\u{E001}")

    /// A hit whose text comes with its matches marked; the marks are taken out. A mark
    /// without its partner (Markdown dropped the other, in a link's address, say) ends or
    /// starts nothing.
    init(chatID: UUID, chatTitle: String, messageID: UUID?, marked: String) {
        var text = String.UnicodeScalarView()
        var matches: [Range<Int>] = []
        var start: Int?
        var length = 0
        for scalar in marked.unicodeScalars {
            switch scalar {
            case Self.open:
                start = length
            case Self.close:
                if let begun = start, begun < length { matches.append(begun..<length) }
                start = nil
            default:
                text.append(scalar)
                length += UTF8.width(scalar)
            }
        }
        self.init(chatID: chatID, chatTitle: chatTitle, messageID: messageID, snippet: String(text), matches: matches)
    }
}
