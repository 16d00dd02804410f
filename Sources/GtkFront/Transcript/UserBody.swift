import AgentCore
import CGtk

/// What the user's bubble holds: their message as they wrote it, plain text (never
/// Markdown), in labels of a few lines each (`StackedLabel`), so even a long paste lays out
/// quickly; under it the files sent with it, each opening when clicked.
@MainActor
final class UserBody {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let text = StackedLabel(classes: ["message-text"])
    private let files: UnsafeMutablePointer<GtkWidget>
    private let openFile: @MainActor (AttachedFile, UnsafeMutablePointer<GtkWidget>) -> Void
    private var shown: String?
    private var shownFiles: [String]?

    init(openFile: @escaping @MainActor (AttachedFile, UnsafeMutablePointer<GtkWidget>) -> Void) {
        self.openFile = openFile
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        files = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(files.opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(files.opaque, 6)
        gtk_flow_box_set_row_spacing(files.opaque, 6)
        gtk_widget_set_halign(files, GTK_ALIGN_END)
        agent_accessible_set_label(files, "Attached files")
        gtk_box_append(widget.cast(), text.widget)
        gtk_box_append(widget.cast(), files)
    }

    func show(_ message: ChatMessage) {
        if message.text != shown {
            shown = message.text
            text.setText(message.text)
            gtk_widget_set_visible(text.widget, message.text.isEmpty ? 0 : 1)
        }
        let digests = message.attachments.map(\.digest)
        guard digests != shownFiles else { return }
        shownFiles = digests
        while let child = gtk_widget_get_first_child(files) { gtk_flow_box_remove(files.opaque, child) }
        for file in message.attachments {
            gtk_flow_box_append(files.opaque, AttachmentChip.openable(file) { [openFile] button in openFile(file, button) })
        }
        gtk_widget_set_visible(files, message.attachments.isEmpty ? 0 : 1)
    }

    /// Forgets what it showed (the row now shows another message).
    func reset() {
        shown = nil
        shownFiles = nil
    }

    /// The text shown (what a screen reader reads).
    var displayedText: String { StackedLabel.text(of: text.widget) ?? "" }
}
