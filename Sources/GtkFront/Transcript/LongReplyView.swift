import AgentCore
import CGtk

/// A reply too long to show whole (see `LongText`): its head as plain text in a read-only
/// text view — which lays out its lines a screenful at a time in idle moments, where labels
/// would lay out all of them at once and freeze the window — and a note saying how long the
/// reply is and how to get all of it.
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
        GtkText.addClasses(textView, "message-text", "long-reply")
        notice = gtk_label_new(nil)
        gtk_label_set_wrap(notice.opaque, 1)
        gtk_label_set_xalign(notice.opaque, 0)
        GtkText.addClasses(notice, "dim-label", "cut-notice")
        gtk_box_append(widget.cast(), textView)
        gtk_box_append(widget.cast(), notice)
    }

    /// Shows `head`, the start of a reply of `totalBytes` bytes. While the reply still grows
    /// the view stays as it is (a size ticking up would redraw it all, every frame).
    func show(_ head: Substring, of totalBytes: Int, growing: Bool) {
        if head != shownHead {
            shownHead = head
            let buffer = gtk_text_view_get_buffer(textView.cast())
            gtk_text_buffer_set_text(buffer, String(head), -1)
        }
        let shown = LongText.size(ofBytes: head.utf8.count)
        let text = growing
            ? "This reply is longer than the window shows (its first \(shown)). Copy it or export the chat to get all of it."
            : "This reply is \(LongText.size(ofBytes: totalBytes)) long; the window shows its first \(shown). "
                + "Copy it or export the chat to get all of it."
        if text != shownNotice {
            shownNotice = text
            gtk_label_set_text(notice.opaque, text)
        }
    }

    /// The text shown (tests, the row's `displayedText`).
    var text: String { GtkText.contents(of: gtk_text_view_get_buffer(textView.cast())) }
}
