import AgentCore
import CGtk

/// Search results (chat titles and message snippets) in a `GtkListBox`; activating one
/// opens its chat at that message.
@MainActor
final class SearchResultsView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let listBox: UnsafeMutablePointer<GtkWidget>
    private let library: ChatLibrary
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    /// Runs after a result was opened (the sidebar closes its search).
    var onOpened: (() -> Void)?
    /// Takes the keyboard focus when the row holding it is removed.
    var onFocusedRowRemoved: (() -> Void)?

    init(library: ChatLibrary) {
        self.library = library
        listBox = gtk_list_box_new()
        gtk_list_box_set_selection_mode(listBox.opaque, GTK_SELECTION_NONE)
        gtk_list_box_set_activate_on_single_click(listBox.opaque, 1)
        GtkText.addClasses(listBox, "navigation-sidebar", "search-results")
        agent_accessible_set_label(listBox, tr("Search results"))
        // What GNOME apps show for a search that finds nothing, at the sidebar's size.
        placeholder = adw_status_page_new()
        adw_status_page_set_icon_name(OpaquePointer(placeholder), "edit-find-symbolic")
        adw_status_page_set_title(OpaquePointer(placeholder), tr("No Results Found"))
        adw_status_page_set_description(OpaquePointer(placeholder), tr("Try a different search"))
        GtkText.addClasses(placeholder, "compact")
        gtk_list_box_set_placeholder(listBox.opaque, placeholder)
        widget = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(widget.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(widget.opaque, listBox)
        gtk_widget_set_vexpand(widget, 1)
        Signals.connect(listBox.raw, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
            open(index)
        }
    }

    /// The hits' texts as shown (for tests): "title — snippet".
    private(set) var shownTexts: [String] = []

    func reload() {
        // Every row goes: one holding the keyboard focus hands it on first (see `FocusRescue`).
        // Rows by index, not children: the placeholder is a child too, and removing it unsets it.
        if FocusRescue.holdsFocus(in: listBox) { onFocusedRowRemoved?() }
        while let row = gtk_list_box_get_row_at_index(listBox.opaque, 0) {
            gtk_list_box_remove(listBox.opaque, UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
        }
        shownTexts = []
        for hit in library.searchResults {
            let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
            GtkText.addClasses(box, "search-hit")
            // A title alone sits in the middle of its row, as the sidebar's rows do.
            gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
            // A title's hit shows the title its matches were counted in.
            let title: UnsafeMutablePointer<GtkWidget> = gtk_label_new(hit.messageID == nil ? hit.snippet : hit.chatTitle)
            gtk_label_set_xalign(title.opaque, 0)
            gtk_label_set_ellipsize(title.opaque, PANGO_ELLIPSIZE_END)
            GtkText.addClasses(title, "chat-title")
            gtk_box_append(box.cast(), title)
            if hit.messageID == nil {
                Self.embolden(hit.matches, in: title)
            } else {
                let snippet: UnsafeMutablePointer<GtkWidget> = gtk_label_new(hit.snippet)
                Self.embolden(hit.matches, in: snippet)
                gtk_label_set_xalign(snippet.opaque, 0)
                gtk_label_set_wrap(snippet.opaque, 1)
                gtk_label_set_lines(snippet.opaque, 2)
                gtk_label_set_ellipsize(snippet.opaque, PANGO_ELLIPSIZE_END)
                GtkText.addClasses(snippet, "dim-label", "search-snippet")
                gtk_box_append(box.cast(), snippet)
            }
            gtk_list_box_append(listBox.opaque, box)
            shownTexts.append(hit.messageID == nil ? hit.chatTitle : "\(hit.chatTitle) — \(hit.snippet)")
        }
    }

    /// Sets the words the search matched (UTF-8 ranges of the label's text) in bold, as
    /// GNOME's search results show them.
    private static func embolden(_ matches: [Range<Int>], in label: UnsafeMutablePointer<GtkWidget>) {
        guard !matches.isEmpty else { return }
        let attributes = pango_attr_list_new()
        for match in matches {
            guard let bold = pango_attr_weight_new(PANGO_WEIGHT_BOLD) else { continue }
            bold.pointee.start_index = guint(match.lowerBound)
            bold.pointee.end_index = guint(match.upperBound)
            pango_attr_list_insert(attributes, bold)
        }
        gtk_label_set_attributes(label.opaque, attributes)
        pango_attr_list_unref(attributes)
    }

    func open(_ index: Int) {
        guard library.searchResults.indices.contains(index) else { return }
        library.open(library.searchResults[index])
        onOpened?()
    }
}
