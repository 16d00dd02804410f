import AgentCore
import CGtk
import FoundationEssentials

/// The line above a message's bubble: a reply's model (to a screen reader "Reply from
/// <model>") and the message's time, its full date in the tooltip. A user's message shows
/// the time alone, on the right.
@MainActor
final class MessageHeading {
    let widget: UnsafeMutablePointer<GtkWidget>
    let authorLabel: UnsafeMutablePointer<GtkWidget>
    private let timeLabel: UnsafeMutablePointer<GtkWidget>
    private var shownModel: String?
    private var shownTime: Date?

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        authorLabel = gtk_label_new(nil)
        GtkText.addClasses(authorLabel, "author")
        gtk_label_set_ellipsize(authorLabel.opaque, PANGO_ELLIPSIZE_END)
        timeLabel = gtk_label_new(nil)
        GtkText.addClasses(timeLabel, "time", "dim-label")
        gtk_box_append(widget.cast(), authorLabel)
        gtk_box_append(widget.cast(), timeLabel)
    }

    /// Another message is coming: what was shown is no guide to what changed.
    func reset() {
        shownModel = nil
        shownTime = nil
    }

    /// Shows `message`'s model and time; nothing is set again when they are unchanged.
    func show(_ message: ChatMessage) {
        if message.model != shownModel || shownTime == nil {
            shownModel = message.model
            gtk_label_set_text(authorLabel.opaque, message.authorLabel)
            // The model's name alone does not say what follows to a screen reader.
            if let model = message.model {
                // TRANSLATORS: the heading of a reply to a screen reader, and a reply notification's title; %s is the model.
                agent_accessible_set_label(authorLabel, tr("Reply from %s", model))
            } else {
                // TRANSLATORS: the heading of a reply whose model is unknown, to a screen reader.
                agent_accessible_set_label(authorLabel, tr("Reply"))
            }
        }
        if message.time != shownTime {
            shownTime = message.time
            gtk_label_set_text(timeLabel.opaque, TimeText.short(message.time))
            agent_widget_set_tooltip_text(timeLabel, message.isoTime)
        }
    }

    /// On the right with the time alone for the user's message, on the left for a reply.
    func showRole(isUser: Bool) {
        gtk_widget_set_halign(widget, isUser ? GTK_ALIGN_END : GTK_ALIGN_START)
        gtk_widget_set_visible(authorLabel, isUser ? 0 : 1)
    }
}
