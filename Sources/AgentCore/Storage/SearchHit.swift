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

    /// What SQLite's `highlight()` and `snippet()` put around each match, bound as their two
    /// mark arguments: noncharacters, which no font draws and no text is meant to hold, and
    /// which pass through the Markdown taken out of a snippet as text. (Swift takes no
    /// noncharacter in a literal: hence the code points.)
    static var marks: [SQLiteValue] { [.text(String(open)), .text(String(close))] }
    private static let (open, close) = (Unicode.Scalar(0xFDD0) ?? "\u{2}", Unicode.Scalar(0xFDD1) ?? "\u{3}")

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
