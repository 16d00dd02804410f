import AgentCore
import CGtk

/// The files attached to the message being written, as chips above the field, wrapping
/// onto more lines in a narrow window; hidden while there are none.
@MainActor
final class AttachmentShelf {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let files: ComposerFiles
    private var shown: [String] = []
    private var shownReading = 0

    init(files: ComposerFiles) {
        self.files = files
        widget = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(widget.opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(widget.opaque, 6)
        gtk_flow_box_set_row_spacing(widget.opaque, 6)
        gtk_flow_box_set_max_children_per_line(widget.opaque, 8)
        gtk_widget_set_hexpand(widget, 1)
        GtkText.addClasses(widget, "attachment-shelf")
        agent_accessible_set_label(widget, "Attached files")
        gtk_widget_set_visible(widget, 0)
    }

    /// The chips, one per file (the card's identity is its content and place), and one
    /// while files are still being read.
    func refresh() {
        let ids = files.items.enumerated().map { "\($0.offset):\($0.element.digest)" }
        guard ids != shown || files.reading != shownReading else { return }
        shown = ids
        shownReading = files.reading
        while let child = gtk_widget_get_first_child(widget) { gtk_flow_box_remove(widget.opaque, child) }
        for (index, file) in files.items.enumerated() {
            gtk_flow_box_append(widget.opaque, AttachmentChip.removable(file) { [weak self] in self?.files.remove(at: index) })
        }
        if files.reading > 0 { gtk_flow_box_append(widget.opaque, AttachmentChip.reading(files.reading)) }
        gtk_widget_set_visible(widget, files.items.isEmpty && files.reading == 0 ? 0 : 1)
    }
}
