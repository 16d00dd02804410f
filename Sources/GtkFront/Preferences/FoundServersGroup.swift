import AgentCore
import CGtk

/// Preferences › Servers › Found on This Computer: the model servers running on this
/// computer, each offered with an Add button that makes it a server profile chats go to; one
/// already added says so. It looks when Preferences opens, and again on Search Again.
@MainActor
final class FoundServersGroup {
    let widget: UnsafeMutablePointer<GtkWidget>
    let searchButton: UnsafeMutablePointer<GtkWidget>
    /// What the last look found, in the order shown.
    private(set) var found: [FoundServer] = []
    /// The Add buttons of the servers not added yet, by URL.
    private(set) var addButtons: [String: UnsafeMutablePointer<GtkWidget>] = [:]
    private(set) var isSearching = false
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    private var search: Task<Void, Never>?
    /// Whether a server is a profile already.
    private let isAdded: @MainActor (FoundServer) -> Bool
    var onAdd: ((FoundServer) -> Void)?

    init(in page: UnsafeMutablePointer<GtkWidget>, isAdded: @escaping @MainActor (FoundServer) -> Bool) {
        self.isAdded = isAdded
        widget = PreferenceRows.group(in: page, title: tr("Found on This Computer"),
                                      description: tr("Model servers already running here, such as Ollama, llama-server or LM Studio. Only this computer is asked."))
        searchButton = MnemonicButton.make(tr("_Search Again"))
        GtkText.addClasses(searchButton, "flat")
        gtk_widget_set_valign(searchButton, GTK_ALIGN_CENTER)
        adw_preferences_group_set_header_suffix(widget.cast(), searchButton)
        Signals.connect(searchButton.raw, "clicked") { [weak self] in self?.searchAgain() }
    }

    /// Asks this computer's ports in the background; the rows follow when the answers are in.
    func searchAgain() {
        search?.cancel()
        isSearching = true
        gtk_widget_set_sensitive(searchButton, 0)
        let spinner: UnsafeMutablePointer<GtkWidget> = gtk_spinner_new()
        gtk_spinner_start(spinner.opaque)
        show([PreferenceRows.actionRow(title: tr("Searching…"), suffix: nil)], spinner: spinner)
        search = Task { [weak self] in
            let found = await LocalServerDiscovery.discover()
            guard !Task.isCancelled, let self else { return }
            self.found = found
            isSearching = false
            gtk_widget_set_sensitive(searchButton, 1)
            refresh()
        }
    }

    /// Shows what was found, each as added or with its Add button.
    func refresh() {
        guard !isSearching else { return }
        addButtons = [:]
        guard !found.isEmpty else {
            let ports = LocalServerDiscovery.candidates.map { String($0.port) }
            show([PreferenceRows.actionRow(title: tr("No Servers Found"),
                                           subtitle: tr("Nothing answered on ports %1$s or %2$s of this computer.",
                                                           ports.dropLast().joined(separator: tr(", ")), ports.last ?? ""))])
            return
        }
        show(found.map(row))
    }

    /// The window closed: an answer still on its way is dropped.
    func windowClosed() {
        search?.cancel()
    }

    private func row(for server: FoundServer) -> UnsafeMutablePointer<GtkWidget> {
        let subtitle = "\(server.url) · \(server.modelCount)"
        guard !isAdded(server) else {
            let added: UnsafeMutablePointer<GtkWidget> = gtk_label_new(tr("Added"))
            GtkText.addClasses(added, "dim-label")
            let row = PreferenceRows.actionRow(title: server.title, subtitle: subtitle)
            adw_action_row_add_suffix(row.cast(), added)
            return row
        }
        let button = MnemonicButton.make(tr("_Add"))
        let row = PreferenceRows.actionRow(title: server.title, subtitle: subtitle, suffix: button)
        agent_accessible_set_label(button, tr("Add %s", server.title))
        Signals.connect(button.raw, "clicked") { [weak self] in self?.onAdd?(server) }
        addButtons[server.url] = button
        return row
    }

    private func show(_ newRows: [UnsafeMutablePointer<GtkWidget>], spinner: UnsafeMutablePointer<GtkWidget>? = nil) {
        for row in rows { adw_preferences_group_remove(widget.cast(), row) }
        if let spinner, let first = newRows.first { adw_action_row_add_suffix(first.cast(), spinner) }
        for row in newRows { PreferenceRows.add(row, to: widget) }
        rows = newRows
    }
}
