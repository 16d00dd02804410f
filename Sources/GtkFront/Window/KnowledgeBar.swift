import AgentCore
import CGtk
import FoundationEssentials

/// The folders the chat asks about, in a strip under the header: each folder's name with ×
/// to stop asking about it, and while a folder is indexed, a progress bar with how many of
/// its files are done. Hidden while the chat has no folders.
@MainActor
final class KnowledgeBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let folders: UnsafeMutablePointer<GtkWidget>
    let progress: UnsafeMutablePointer<GtkWidget>
    private let knowledge: ChatKnowledge
    private var shown: [URL] = []

    init(knowledge: ChatKnowledge) {
        self.knowledge = knowledge
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)
        GtkText.addClasses(widget, "knowledge-bar")
        let row: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        let icon: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("folder-documents-symbolic")
        GtkText.addClasses(icon, "dim-label")
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(tr("Asking about"))
        GtkText.addClasses(label, "dim-label", "caption-heading")
        folders = ChipFlow.make(label: tr("Folders this chat asks about"), columnSpacing: 4)
        gtk_widget_set_hexpand(folders, 1)
        gtk_box_append(row.cast(), icon)
        gtk_box_append(row.cast(), label)
        gtk_box_append(row.cast(), folders)
        progress = gtk_progress_bar_new()
        gtk_progress_bar_set_show_text(progress.opaque, 1)
        GtkText.addClasses(progress, "osd")
        gtk_box_append(widget.cast(), row)
        gtk_box_append(widget.cast(), progress)
        refresh()
    }

    func refresh() {
        if knowledge.folders != shown {
            shown = knowledge.folders
            ChipFlow.fill(folders, with: shown.map(chip))
        }
        gtk_widget_set_visible(widget, shown.isEmpty ? 0 : 1)
        guard let indexing = knowledge.indexing else {
            gtk_widget_set_visible(progress, 0)
            return
        }
        gtk_widget_set_visible(progress, 1)
        let name = indexing.folder.lastPathComponent
        if indexing.total == 0 {
            gtk_progress_bar_pulse(progress.opaque)
            gtk_progress_bar_set_text(progress.opaque, tr("Looking through “%s”…", name))
        } else {
            gtk_progress_bar_set_fraction(progress.opaque, Double(indexing.done) / Double(indexing.total))
            gtk_progress_bar_set_text(progress.opaque, trn("Indexing “%2$s”: %3$s of %1$d file", "Indexing “%2$s”: %3$s of %1$d files", indexing.total, name, UserLocale.number(indexing.done)))
        }
    }

    private func chip(_ folder: URL) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)
        GtkText.addClasses(box, "knowledge-folder")
        gtk_widget_set_halign(box, GTK_ALIGN_START)
        let name: UnsafeMutablePointer<GtkWidget> = gtk_label_new(folder.lastPathComponent)
        agent_widget_set_tooltip_text(name, folder.path)
        gtk_label_set_ellipsize(name.opaque, PANGO_ELLIPSIZE_MIDDLE)
        let remove: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("window-close-symbolic")
        GtkText.addClasses(remove, "flat", "circular", "knowledge-remove")
        agent_widget_set_tooltip_text(remove, tr("Stop Asking About This Folder"))
        agent_accessible_set_label(remove, tr("Stop asking about %s", folder.lastPathComponent))
        let knowledge = knowledge
        Signals.connect(remove.raw, "clicked") { knowledge.remove(folder) }
        gtk_box_append(box.cast(), name)
        gtk_box_append(box.cast(), remove)
        return box
    }
}
