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
        widget = ChipFlow.make(label: tr("Attached files"), columnSpacing: 6, rowSpacing: 6)
        gtk_flow_box_set_max_children_per_line(widget.opaque, 8)
        gtk_widget_set_hexpand(widget, 1)
        GtkText.addClasses(widget, "attachment-shelf")
        gtk_widget_set_visible(widget, 0)
    }

    /// The chips, one per file (the card's identity is its content and place), and one
    /// while files are still being read.
    func refresh() {
        let ids = files.items.enumerated().map { "\($0.offset):\($0.element.digest)" }
        guard ids != shown || files.reading != shownReading else { return }
        shown = ids
        shownReading = files.reading
        var chips = files.items.enumerated().map { index, file in
            AttachmentChip.removable(file) { [weak self] in self?.files.remove(at: index) }
        }
        if files.reading > 0 { chips.append(AttachmentChip.reading(files.reading)) }
        ChipFlow.fill(widget, with: chips)
        gtk_widget_set_visible(widget, files.items.isEmpty && files.reading == 0 ? 0 : 1)
    }
}
