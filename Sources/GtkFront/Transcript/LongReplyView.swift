import CGtk
import AgentCore
import TextLayout

/// A reply too long for labels (see `LongText`): as plain text (its head, when longer still)
/// in a `PlainTextView` — where labels would lay out all of it at once and freeze the
/// window — and a note saying so, and how long the reply is and how to get all of it when
/// it is cut.
@MainActor
final class LongReplyView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let notice: UnsafeMutablePointer<GtkWidget>
    private let textView = PlainTextView()
    private var shownNotice = ""

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        notice = gtk_label_new(nil)
        gtk_label_set_wrap(notice.opaque, 1)
        gtk_label_set_xalign(notice.opaque, 0)
        gtk_label_set_max_width_chars(notice.opaque, StackedLabel.maxWidthChars)
        GtkText.addClasses(notice, "dim-label", "cut-notice")
        gtk_box_append(widget.cast(), textView.widget)
        gtk_box_append(widget.cast(), notice)
    }

    /// Shows `head`, the start of a reply of `totalBytes` bytes (all of it when they are the
    /// same length), a few kilobytes more per call; returns false while some is still to
    /// show (call again next frame). The note's text does not change as the reply grows or
    /// ends — that would lay the whole row out again — so the reply's size goes in its tooltip.
    @discardableResult
    func show(_ head: Substring, of totalBytes: Int) -> Bool {
        let caughtUp = textView.show(head)
        let isCut = head.utf8.count < totalBytes
        let shown = ByteCountText.describe(head.utf8.count)
        let text = isCut ? tr("This reply is longer than the window shows (its first %s). Copy it or export the chat to get all of it.", shown)
            : tr("A long reply, shown as plain text.")
        if text != shownNotice {
            shownNotice = text
            gtk_label_set_text(notice.opaque, text)
        }
        agent_widget_set_tooltip_text(notice, isCut ? tr("The whole reply: %s", ByteCountText.describe(totalBytes)) : nil)
        return caughtUp
    }

    /// The text shown (tests, the row's `displayedText`).
    var text: String { textView.text }
}
