import AgentCore
import CGtk

/// A reply too long for labels (see `LongText`): as plain text (its head, when longer still)
/// in a read-only text view — which lays out its lines a few at a time in idle moments,
/// where labels would lay out all of them at once and freeze the window — and a note saying
/// so, and how long the reply is and how to get all of it when it is cut.
@MainActor
final class LongReplyView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let notice: UnsafeMutablePointer<GtkWidget>
    private let textView: UnsafeMutablePointer<GtkWidget>
    private var shownHead: Substring = ""
    private var shownNotice = ""

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        textView = gtk_text_view_new()
        gtk_text_view_set_editable(textView.cast(), 0)
        gtk_text_view_set_cursor_visible(textView.cast(), 0)
        gtk_text_view_set_wrap_mode(textView.cast(), GTK_WRAP_WORD_CHAR)
        gtk_widget_set_hexpand(textView, 1)
        // Not "message-text": the streaming style of the bubble must not restyle (and so lay
        // out again) tens of kilobytes of text when the reply ends.
        GtkText.addClasses(textView, "long-reply")
        notice = gtk_label_new(nil)
        gtk_label_set_wrap(notice.opaque, 1)
        gtk_label_set_xalign(notice.opaque, 0)
        GtkText.addClasses(notice, "dim-label", "cut-notice")
        gtk_box_append(widget.cast(), textView)
        gtk_box_append(widget.cast(), notice)
    }

    /// Shows `head`, the start of a reply of `totalBytes` bytes (all of it when they are the
    /// same length), taking on at most `LongText.revealPerFrame` × 4 of it per call; returns
    /// false while some is still to show (call again next frame). The note's text does not
    /// change as the reply grows or ends — that would lay the whole row out again — so the
    /// reply's size goes in its tooltip.
    @discardableResult
    func show(_ head: Substring, of totalBytes: Int) -> Bool {
        let buffer = gtk_text_view_get_buffer(textView.cast())
        if !head.hasPrefix(shownHead) {
            shownHead = ""
            gtk_text_buffer_set_text(buffer, "", 0)
        }
        var caughtUp = true
        if head.utf8.count > shownHead.utf8.count {
            let start = head.utf8.index(head.utf8.startIndex, offsetBy: shownHead.utf8.count)
            let rest = head[start...]
            let (piece, isCut) = LongText.head(of: String(rest), limit: 4 * LongText.revealPerFrame, atLineBreak: false)
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(buffer, &end)
            gtk_text_buffer_insert(buffer, &end, String(piece), -1)
            shownHead = head[..<head.utf8.index(start, offsetBy: piece.utf8.count)]
            caughtUp = !isCut
        }
        let isCut = head.utf8.count < totalBytes
        let shown = LongText.size(ofBytes: head.utf8.count)
        let text = isCut ? "This reply is longer than the window shows (its first \(shown)). Copy it or export the chat to get all of it."
            : "A long reply, shown as plain text."
        if text != shownNotice {
            shownNotice = text
            gtk_label_set_text(notice.opaque, text)
        }
        gtk_widget_set_tooltip_text(notice, isCut ? "The whole reply: \(LongText.size(ofBytes: totalBytes))" : nil)
        return caughtUp
    }

    /// The text shown (tests, the row's `displayedText`).
    var text: String { GtkText.contents(of: gtk_text_view_get_buffer(textView.cast())) }
}
