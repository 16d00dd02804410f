import AgentCore
import CGtk
import FoundationEssentials

/// A chat in the sidebar: its title, when it was last used, and a Delete button.
@MainActor
final class ChatRow {
    let root: UnsafeMutablePointer<GtkWidget>
    let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let dateLabel: UnsafeMutablePointer<GtkWidget>
    let deleteButton: UnsafeMutablePointer<GtkWidget>
    private(set) var chatID: UUID?

    /// `onChosen` runs when the row is clicked, even when its chat is already open (a folded
    /// window then shows the chat).
    init(onDelete: @escaping @MainActor (UUID) -> Void, onChosen: @escaping @MainActor () -> Void) {
        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        GtkText.addClasses(root, "chat-row")
        let texts: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_widget_set_hexpand(texts, 1)
        titleLabel = gtk_label_new(nil)
        gtk_label_set_ellipsize(titleLabel.opaque, PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(titleLabel.opaque, 0)
        GtkText.addClasses(titleLabel, "chat-title")
        gtk_widget_set_has_tooltip(titleLabel, 1)
        dateLabel = gtk_label_new(nil)
        gtk_label_set_xalign(dateLabel.opaque, 0)
        GtkText.addClasses(dateLabel, "chat-date", "dim-label")
        gtk_box_append(texts.cast(), titleLabel)
        gtk_box_append(texts.cast(), dateLabel)
        deleteButton = gtk_button_new_from_icon_name("user-trash-symbolic")
        GtkText.addClasses(deleteButton, "flat", "chat-delete")
        gtk_widget_set_valign(deleteButton, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(deleteButton, tr("Delete chat"))
        agent_accessible_set_label(deleteButton, tr("Delete chat"))
        gtk_box_append(root.cast(), texts)
        gtk_box_append(root.cast(), deleteButton)
        Signals.connect(deleteButton.raw, "clicked") { [weak self] in
            if let id = self?.chatID { onDelete(id) }
        }
        Signals.connectQueryTooltip(titleLabel.raw) { [weak self] tooltip in
            guard let text = self?.titleTooltip else { return false }
            gtk_tooltip_set_text(tooltip, text)
            return true
        }
        let click: OpaquePointer = gtk_gesture_click_new()
        Signals.connectPressed(UnsafeMutableRawPointer(click)) { _, _, _ in onChosen() }
        gtk_widget_add_controller(texts, click)
    }

    func bind(_ chat: ChatSummary) {
        chatID = chat.id
        gtk_label_set_text(titleLabel.opaque, chat.title)
        gtk_label_set_text(dateLabel.opaque, TimeText.short(chat.updated))
    }

    var title: String { String(cString: gtk_label_get_text(titleLabel.opaque)) }

    /// The title as the pointer's tooltip, when the row cuts it short; nil when it shows whole.
    var titleTooltip: String? {
        guard let layout = gtk_label_get_layout(titleLabel.opaque), pango_layout_is_ellipsized(layout) != 0 else { return nil }
        return title
    }
}
