import AgentCore
import CGtk

/// Tells screen readers that a reply finished, and how it starts. GTK 4.8 has no
/// `gtk_accessible_announce` (4.14 does): a label with the status role takes the words — to
/// AT-SPI a status bar whose name changes — drawn nowhere (an overlay child, transparent, that
/// takes no clicks) so that only screen readers meet it.
@MainActor
final class ReplyAnnouncer {
    let label: UnsafeMutablePointer<GtkWidget>

    init() {
        label = agent_status_label_new()
        gtk_widget_set_opacity(label, 0)
        gtk_widget_set_can_target(label, 0)
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        gtk_widget_set_valign(label, GTK_ALIGN_END)
        // One line, never wider than the window lets it be.
        gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_END)
        GtkText.addClasses(label, "reply-announcement")
    }

    /// What was announced last.
    var text: String { String(cString: gtk_label_get_text(label.opaque)) }

    func announce(_ reply: ChatMessage) {
        let words = ReplyAnnouncement.text(for: reply)
        // The same words again would change nothing, and nothing would be heard.
        if words == text { gtk_label_set_text(label.opaque, "") }
        gtk_label_set_text(label.opaque, words)
    }
}
