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
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(tr("Sources"))
        GtkText.addClasses(label, "dim-label", "caption-heading")
        gtk_widget_set_valign(label, GTK_ALIGN_CENTER)
        links = ChipFlow.make(label: tr("Sources"), columnSpacing: 2)
        gtk_widget_set_hexpand(links, 1)
        gtk_box_append(widget.cast(), label)
        gtk_box_append(widget.cast(), links)
        gtk_widget_set_visible(widget, 0)
    }

    func show(_ sources: [KnowledgeSource]) {
        guard sources != shown else { return }
        shown = sources
        ChipFlow.fill(links, with: sources.map { source in
            let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_label(source.label)
            GtkText.addClasses(button, "flat", "source-link")
            gtk_widget_set_halign(button, GTK_ALIGN_START)
            agent_widget_set_tooltip_text(button, source.path)
            let open = open
            Signals.connect(button.raw, "clicked") { open(source, button) }
            return button
        })
        gtk_widget_set_visible(widget, sources.isEmpty ? 0 : 1)
    }
}
