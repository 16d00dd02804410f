import CGtk
import TextLayout

/// Plain text that grows, in a read-only text view that sits in the bubble as the labels
/// do. A text view lays out only the lines added to it, where GTK 4.8 lays a wrapping
/// label out whole, several times, whenever its text changes (measured: 30–70 ms for a frame
/// that grows a streaming paragraph to 2 KB, docs/reliability.md). It holds a streaming
/// reply's unfinished block and the shown part of a reply too long for labels
/// (`LongReplyView`).
@MainActor
final class PlainTextView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let view: UnsafeMutablePointer<GtkWidget>
    /// A copy of what is shown, never a slice of the text given: a slice would keep a growing
    /// reply's text shared, and the next append to it would copy all of it.
    private var shown = ""
    /// Where the text last given to be measured began (a UTF-8 offset), nil when it was too
    /// long to measure: until GTK measures it, the next text begins there too, so that no
    /// line goes unmeasured (a closed Thinking section is not measured at all).
    private var measuredFrom: Int? = 0

    /// `classes`: CSS classes besides "plain-text".
    init(classes: [String] = []) {
        view = gtk_text_view_new()
        gtk_text_view_set_editable(view.cast(), 0)
        gtk_text_view_set_cursor_visible(view.cast(), 0)
        gtk_text_view_set_wrap_mode(view.cast(), GTK_WRAP_WORD_CHAR)
        GtkText.addClasses(view, "plain-text")
        for name in classes { gtk_widget_add_css_class(view, name) }
        widget = agent_reading_width_box_new(view, StackedLabel.maxWidthChars)
        agent_reading_width_box_keep_widest(widget, 1)
    }

    /// Shows `text`: what was added since the last call is appended, at most `limit` bytes
    /// of it (the rest on later calls); other text replaces what is shown. Returns false
    /// while some of `text` is still to show.
    @discardableResult
    func show(_ text: Substring, limit: Int = LongText.revealPerFrame) -> Bool {
        let buffer = gtk_text_view_get_buffer(view.cast())
        if !text.utf8.starts(with: shown.utf8) {
            shown = ""
            gtk_text_buffer_set_text(buffer, "", 0)
            agent_reading_width_box_set_line(widget, "")
            agent_reading_width_box_keep_widest(widget, 1)
            measuredFrom = 0
        }
        guard text.utf8.count > shown.utf8.count else { return true }
        let start = text.utf8.index(text.utf8.startIndex, offsetBy: shown.utf8.count)
        let (piece, isCut) = LongText.head(of: String(text[start...]), limit: limit, atLineBreak: false)
        var end = GtkTextIter()
        gtk_text_buffer_get_end_iter(buffer, &end)
        gtk_text_buffer_insert(buffer, &end, String(piece), -1)
        if agent_reading_width_box_was_measured(widget) != 0 { measuredFrom = lastLineStart }
        shown += piece
        agent_reading_width_box_set_line(widget, measuredFrom.flatMap { Self.measured(shown.utf8.dropFirst($0)) })
        return !isCut
    }

    /// Where the last line of what is shown begins (a UTF-8 offset), or nil when it began
    /// more than `measuredBytes` ago.
    private var lastLineStart: Int? {
        let utf8 = shown.utf8
        var index = utf8.endIndex
        for _ in 0...Self.measuredBytes {
            guard index > utf8.startIndex else { return 0 }
            let before = utf8.index(before: index)
            if utf8[before] == UInt8(ascii: "\n") { return utf8.distance(from: utf8.startIndex, to: index) }
            index = before
        }
        return nil
    }

    /// The lines added since GTK last measured the box (from the start of the line they
    /// continue), their trailing spaces and line breaks left out, while they are short: the
    /// box is as wide as the widest of them, or as it was (it keeps its widest), as labels
    /// would be — so a bubble grows with a streaming reply's words and keeps its width when
    /// labels take their place. Nil for longer text, held at the reading width.
    private static func measured(_ lines: Substring.UTF8View) -> String? {
        guard lines.count <= measuredBytes else { return nil }
        var text = Substring(lines)
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }

    /// Past this, text is measured no more: a line this long is about the reading width anyway.
    private static let measuredBytes = 4 * Int(StackedLabel.maxWidthChars)

    /// The text shown.
    var text: String { GtkText.contents(of: gtk_text_view_get_buffer(view.cast())) }
}
