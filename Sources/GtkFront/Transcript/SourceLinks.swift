import AgentCore
import CGtk
import FoundationEssentials

/// The sources a reply was given from the chat's folders, under it: "Sources" and a link
/// per file (with its page for a PDF) that opens the file.
@MainActor
final class SourceLinks {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let links: UnsafeMutablePointer<GtkWidget>
    private let open: @MainActor (KnowledgeSource, UnsafeMutablePointer<GtkWidget>) -> Void
    private var shown: [KnowledgeSource] = []

    init(open: @escaping @MainActor (KnowledgeSource, UnsafeMutablePointer<GtkWidget>) -> Void) {
        self.open = open
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)
        GtkText.addClasses(widget, "reply-sources")
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new("Sources")
        GtkText.addClasses(label, "dim-label", "caption-heading")
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        links = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(links.opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(links.opaque, 2)
        gtk_widget_set_hexpand(links, 1)
        agent_accessible_set_label(links, "Sources")
        gtk_box_append(widget.cast(), label)
        gtk_box_append(widget.cast(), links)
        gtk_widget_set_visible(widget, 0)
    }

    func show(_ sources: [KnowledgeSource]) {
        guard sources != shown else { return }
        shown = sources
        while let child = gtk_widget_get_first_child(links) { gtk_flow_box_remove(links.opaque, child) }
        for source in sources {
            let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_label(source.label)
            GtkText.addClasses(button, "flat", "source-link")
            gtk_widget_set_halign(button, GTK_ALIGN_START)
            gtk_widget_set_tooltip_text(button, source.path)
            let open = open
            Signals.connect(button.raw, "clicked") { open(source, button) }
            gtk_flow_box_append(links.opaque, button)
        }
        gtk_widget_set_visible(widget, sources.isEmpty ? 0 : 1)
    }
}
