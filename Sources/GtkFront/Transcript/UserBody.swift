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
    /// Holds `files` at the bubble's end (a flow box is never end-aligned itself: `ChipFlow`).
    private let filesPlace: UnsafeMutablePointer<GtkWidget>
    private let openFile: @MainActor (AttachedFile, UnsafeMutablePointer<GtkWidget>) -> Void
    private var shown: String?
    private var shownFiles: [String]?

    init(openFile: @escaping @MainActor (AttachedFile, UnsafeMutablePointer<GtkWidget>) -> Void) {
        self.openFile = openFile
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        files = ChipFlow.make(label: tr("Attached files"), columnSpacing: 6, rowSpacing: 6)
        filesPlace = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_widget_set_halign(filesPlace, GTK_ALIGN_END)
        gtk_box_append(filesPlace.cast(), files)
        gtk_box_append(widget.cast(), text.widget)
        gtk_box_append(widget.cast(), filesPlace)
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
        ChipFlow.fill(files, with: message.attachments.map { file in
            AttachmentChip.openable(file) { [openFile] button in openFile(file, button) }
        })
        gtk_widget_set_visible(filesPlace, message.attachments.isEmpty ? 0 : 1)
    }

    /// Forgets what it showed (the row now shows another message).
    func reset() {
        shown = nil
        shownFiles = nil
    }

    /// The text shown (what a screen reader reads).
    var displayedText: String { StackedLabel.text(of: text.widget) ?? "" }
}
