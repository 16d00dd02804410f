import AgentCore
import CGtk

/// The header's model menu: a popover with a search entry over the current server's models
/// (listed in the background each time it opens, a spinner meanwhile, a line saying why when
/// the server cannot be asked) and, under "On This Computer", the models the local runtime
/// runs. Typing filters, Up and Down move, Enter or a click chooses, Escape closes.
@MainActor
final class ModelMenu {
    let popover: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    let listBox: UnsafeMutablePointer<GtkWidget>
    /// The spinner and its line while the server is asked, or why it could not be.
    let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let statusRow: UnsafeMutablePointer<GtkWidget>
    private let scrolled: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel
    /// Told when the menu has closed, chosen or not (the window gives the message field the focus back).
    var onClosed: (() -> Void)?

    /// A row the user can choose, with the model it stands for.
    struct Entry: Equatable {
        let choice: ModelChoice
        let title: String
        let isCurrent: Bool
    }

    /// What each row of the list holds: a section's heading (nil) or a model.
    private(set) var rows: [Entry?] = []
    /// The models shown now, in order (for tests and the accessible list).
    var shownEntries: [Entry] { rows.compactMap { $0 } }

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        searchEntry = gtk_search_entry_new()
        Self.setPlaceholder(tr("Search models"), on: searchEntry)
        agent_accessible_set_label(searchEntry, tr("Search models"))

        spinner = gtk_spinner_new()
        statusLabel = gtk_label_new(nil)
        gtk_label_set_wrap(statusLabel.opaque, 1)
        gtk_label_set_xalign(statusLabel.opaque, 0)
        gtk_label_set_max_width_chars(statusLabel.opaque, 36)
        GtkText.addClasses(statusLabel, "dim-label")
        statusRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_widget_set_margin_start(statusRow, 6)
        gtk_box_append(statusRow.cast(), spinner)
        gtk_box_append(statusRow.cast(), statusLabel)

        listBox = gtk_list_box_new()
        gtk_list_box_set_selection_mode(listBox.opaque, GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(listBox.opaque, 1)
        GtkText.addClasses(listBox, "navigation-sidebar", "model-list")
        agent_accessible_set_label(listBox, tr("Models"))
        let placeholder: UnsafeMutablePointer<GtkWidget> = gtk_label_new(tr("No matching models"))
        GtkText.addClasses(placeholder, "dim-label")
        gtk_widget_set_margin_top(placeholder, 12)
        gtk_widget_set_margin_bottom(placeholder, 12)
        gtk_list_box_set_placeholder(listBox.opaque, placeholder)
        scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(scrolled.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(scrolled.opaque, 1)
        gtk_scrolled_window_set_max_content_height(scrolled.opaque, 360)
        gtk_scrolled_window_set_child(scrolled.opaque, listBox)

        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_widget_set_size_request(box, 280, -1)
        gtk_box_append(box.cast(), searchEntry)
        gtk_box_append(box.cast(), statusRow)
        gtk_box_append(box.cast(), scrolled)
        popover = gtk_popover_new()
        gtk_popover_set_child(popover.cast(), box)
        gtk_search_entry_set_key_capture_widget(searchEntry.opaque, popover)

        Signals.connect(searchEntry.raw, "search-changed") { [weak self] in self?.reload() }
        Signals.connect(searchEntry.raw, "activate") { [weak self] in self?.chooseSelected() }
        Signals.connect(searchEntry.raw, "stop-search") { [weak self] in self?.close() }
        Signals.connect(listBox.raw, "row-activated") { [weak self] row in
            guard let self, let row else { return }
            choose(at: Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self))))
        }
        if let keys = gtk_event_controller_key_new() {
            gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
            Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] key, _ in
                switch Int32(key) {
                case GDK_KEY_Down, GDK_KEY_KP_Down: self?.moveSelection(by: 1) ?? false
                case GDK_KEY_Up, GDK_KEY_KP_Up: self?.moveSelection(by: -1) ?? false
                default: false
                }
            }
            gtk_widget_add_controller(searchEntry, keys)
        }
        Signals.connect(popover.raw, "show") { [weak self] in self?.opened() }
        Signals.connect(popover.raw, "closed") { [weak self] in self?.onClosed?() }
    }

    /// GtkSearchEntry has no placeholder setter before GTK 4.10: the property, through a GValue.
    private static func setPlaceholder(_ text: String, on entry: UnsafeMutablePointer<GtkWidget>) {
        var value = GValue()
        // G_TYPE_STRING (a macro): fundamental type 16, shifted by G_TYPE_FUNDAMENTAL_SHIFT.
        g_value_init(&value, GType(16 << 2))
        g_value_set_string(&value, text)
        g_object_set_property(entry.raw.assumingMemoryBound(to: GObject.self), "placeholder-text", &value)
        g_value_unset(&value)
    }

    var isOpen: Bool { gtk_widget_get_visible(popover) != 0 }

    func close() {
        gtk_popover_popdown(popover.cast())
    }

    /// Opened: the search starts empty, the server is asked for its models, typing goes to the search.
    private func opened() {
        gtk_editable_set_text(searchEntry.opaque, "")
        viewModel.listModels()
        reload()
        gtk_widget_grab_focus(searchEntry)
    }

    /// Follows the view model (the server's list arrived, the chat's model changed).
    func refresh() {
        guard isOpen else { return }
        reload()
    }

    /// Rebuilds the list for the search text; the current model (else the first) is selected.
    private func reload() {
        let query = String(cString: gtk_editable_get_text(searchEntry.opaque)).trimmed.lowercased()
        let matches: (Entry) -> Bool = { query.isEmpty || $0.title.lowercased().contains(query) }
        var sections: [(String, [Entry])] = []
        var status: (spinning: Bool, text: String)?
        let server = viewModel.defaultConnection.locationDescription
        switch viewModel.models.server {
        case .notListed, .loading:
            status = (true, tr("Asking %s for its models…", server))
        case .failed(let reason):
            status = (false, tr("Could not list the models of %1$s: %2$s", server, reason))
        case .noServer:
            break
        case .listed(let names):
            sections.append((server, names.map { entry(.server($0)) }.filter(matches)))
        }
        sections.append((tr("On This Computer"), viewModel.models.local.map { entry(.local($0)) }.filter(matches)))
        showStatus(status)

        while let child = gtk_widget_get_first_child(listBox) {
            gtk_list_box_remove(listBox.opaque, child)
        }
        rows = []
        for (heading, entries) in sections where !entries.isEmpty {
            appendHeading(heading)
            for entry in entries { appendRow(entry) }
        }
        let firstModel = rows.firstIndex { $0 != nil }
        let current = rows.firstIndex { $0?.isCurrent == true }
        if let index = query.isEmpty ? current ?? firstModel : firstModel { select(index) }
    }

    private func entry(_ choice: ModelChoice) -> Entry {
        let connection = viewModel.connection
        let isCurrent = switch choice.place {
        case .server: !connection.isLocal && connection.modelName == choice.name
        case .thisComputer: connection.localModel?.id == choice.name
        }
        return Entry(choice: choice, title: viewModel.displayName(of: choice), isCurrent: isCurrent)
    }

    private func showStatus(_ status: (spinning: Bool, text: String)?) {
        gtk_widget_set_visible(statusRow, status == nil ? 0 : 1)
        gtk_label_set_text(statusLabel.opaque, status?.text ?? "")
        gtk_widget_set_visible(spinner, status?.spinning == true ? 1 : 0)
        if status?.spinning == true { gtk_spinner_start(spinner.opaque) } else { gtk_spinner_stop(spinner.opaque) }
    }

    private func appendHeading(_ title: String) {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(title)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_END)
        GtkText.addClasses(label, "heading", "dim-label")
        gtk_widget_set_margin_top(label, rows.isEmpty ? 0 : 6)
        let row: UnsafeMutablePointer<GtkWidget> = gtk_list_box_row_new()
        gtk_list_box_row_set_child(row.cast(), label)
        gtk_list_box_row_set_activatable(row.cast(), 0)
        gtk_list_box_row_set_selectable(row.cast(), 0)
        gtk_widget_set_focusable(row, 0)
        gtk_list_box_append(listBox.opaque, row)
        rows.append(nil)
    }

    private func appendRow(_ entry: Entry) {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(entry.title)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_hexpand(label, 1)
        let check: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("object-select-symbolic")
        gtk_widget_set_opacity(check, entry.isCurrent ? 1 : 0)
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_box_append(box.cast(), label)
        gtk_box_append(box.cast(), check)
        let row: UnsafeMutablePointer<GtkWidget> = gtk_list_box_row_new()
        gtk_list_box_row_set_child(row.cast(), box)
        agent_accessible_set_label(row, entry.isCurrent ? tr("%s, in use", entry.title) : entry.title)
        gtk_list_box_append(listBox.opaque, row)
        rows.append(entry)
    }

    /// Selects row `index` and scrolls it into view (the focus stays in the search entry).
    private func select(_ index: Int) {
        guard let row = gtk_list_box_get_row_at_index(listBox.opaque, Int32(index)) else { return }
        gtk_list_box_select_row(listBox.opaque, row)
        var bounds = graphene_rect_t()
        let rowWidget = UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self)
        guard gtk_widget_compute_bounds(rowWidget, listBox, &bounds) != 0,
              let adjustment = gtk_scrolled_window_get_vadjustment(scrolled.opaque) else { return }
        let top = Double(bounds.origin.y)
        let bottom = top + Double(bounds.size.height)
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        if top < value {
            gtk_adjustment_set_value(adjustment, top)
        } else if bottom > value + page {
            gtk_adjustment_set_value(adjustment, bottom - page)
        }
    }

    /// The index of the selected row, if a model's.
    var selectedIndex: Int? {
        guard let row = gtk_list_box_get_selected_row(listBox.opaque) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    /// Up and Down in the search entry move the selection over the models (headings skipped).
    private func moveSelection(by step: Int) -> Bool {
        let models = rows.indices.filter { rows[$0] != nil }
        guard !models.isEmpty else { return true }
        let position = selectedIndex.flatMap { models.firstIndex(of: $0) }
        let next = position.map { min(max($0 + step, 0), models.count - 1) } ?? 0
        select(models[next])
        return true
    }

    private func chooseSelected() {
        guard let index = selectedIndex ?? rows.firstIndex(where: { $0 != nil }) else { return }
        choose(at: index)
    }

    /// Uses the model of row `index` for the chat; the default model goes back to following the default.
    private func choose(at index: Int) {
        guard rows.indices.contains(index), let entry = rows[index] else { return }
        close()
        let base = viewModel.defaultConnection
        let isDefault = base.isLocal ? entry.choice == base.localModel.map(ModelChoice.local)
            : entry.choice == .server(base.modelName)
        viewModel.choose(isDefault ? nil : entry.choice)
    }
}
