import AgentCore
import CGtk

/// Preferences › Tools › MCP Servers: the servers of `mcp.json`, one `MCPServerRow` each,
/// following the model as servers start, fail and change; "Add Server" pastes another app's
/// configuration or takes a form. Its changes are written at once (the model's file), not
/// when Preferences closes.
@MainActor
final class MCPServersGroup {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// "Add Server": a menu of Paste Configuration… and Add Manually….
    let addButton: UnsafeMutablePointer<GtkWidget>
    private(set) var rows: [MCPServerRow] = []
    /// Says that there are none yet.
    let emptyRow: UnsafeMutablePointer<GtkWidget>
    /// Entries of the file that cannot be used, and why.
    let problemsLabel: UnsafeMutablePointer<GtkWidget>
    /// The dialogs while they are open.
    private(set) var pasteDialog: MessageDialog?
    private(set) var addDialog: AddMCPServerDialog?
    private(set) var removalDialog: MessageDialog?
    private(set) var alert: MessageDialog?
    private let model: MCPServersModel
    /// Preferences, which the dialogs open over.
    private let window: UnsafeMutablePointer<GtkWidget>
    private var closed = false
    private var observer = 0

    var onNotice: ((String) -> Void)?

    init(in page: UnsafeMutablePointer<GtkWidget>, model: MCPServersModel, window: UnsafeMutablePointer<GtkWidget>) {
        self.model = model
        self.window = window
        widget = PreferenceRows.group(in: page, title: tr("MCP Servers"),
                                      description: tr("MCP servers give the model more tools: programs on this computer or services on the web. Agent keeps them in %s.",
                                                       AppIdentity.tildePath(model.file.path)))
        addButton = Self.addMenuButton()
        adw_preferences_group_set_header_suffix(widget.cast(), addButton)
        emptyRow = PreferenceRows.actionRow(title: tr("No servers yet"))
        GtkText.addClasses(emptyRow, "dim-label")
        PreferenceRows.add(emptyRow, to: widget)
        problemsLabel = MonospaceBlock.caption("", classes: "error")
        gtk_widget_set_margin_top(problemsLabel, 6)
        PreferenceRows.add(problemsLabel, to: widget)

        if let actions = g_simple_action_group_new() {
            Actions.add("paste", to: UnsafeMutableRawPointer(actions)) { [weak self] in self?.showPasteDialog() }
            Actions.add("add-manually", to: UnsafeMutableRawPointer(actions)) { [weak self] in self?.showAddDialog() }
            gtk_widget_insert_action_group(widget, "mcp", OpaquePointer(actions))
            g_object_unref(UnsafeMutableRawPointer(actions))
        }
        observer = model.observe { [weak self] in self?.refresh() }
        refresh()
    }

    /// The window closed: late answers and status changes are dropped.
    func windowClosed() {
        closed = true
        model.stopObserving(observer)
    }

    func row(named name: String) -> MCPServerRow? { rows.first { $0.name == name } }

    private static func addMenuButton() -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()
        g_menu_append(menu, tr("_Paste Configuration…"), "mcp.paste")
        g_menu_append(menu, tr("Add _Manually…"), "mcp.add-manually")
        let button: UnsafeMutablePointer<GtkWidget> = gtk_menu_button_new()
        gtk_menu_button_set_menu_model(button.opaque, UnsafeMutablePointer<GMenuModel>(menu))
        g_object_unref(UnsafeMutableRawPointer(menu))
        let content = adw_button_content_new()
        adw_button_content_set_icon_name(OpaquePointer(content), "list-add-symbolic")
        adw_button_content_set_label(OpaquePointer(content), tr("_Add Server"))
        adw_button_content_set_use_underline(OpaquePointer(content), 1)
        gtk_menu_button_set_child(button.opaque, content)
        gtk_menu_button_set_use_underline(button.opaque, 1)
        GtkText.addClasses(button, "flat")
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        agent_accessible_set_label(button, tr("Add Server"))
        return button
    }

    // MARK: Following the model

    /// Brings the rows in line with the model: rows of removed servers go, new ones are
    /// added, and every row shows its server's state. Rows are rebuilt only when the file's
    /// order changed under them, keeping which were open.
    private func refresh() {
        guard !closed else { return }
        let configs = model.configs
        let names = configs.map(\.name)
        for row in rows where !names.contains(row.name) { removeRow(row) }
        let kept = rows.map(\.name)
        let firstNew = names.firstIndex { !kept.contains($0) } ?? names.count
        let lastKept = names.lastIndex { kept.contains($0) } ?? -1
        if kept != names.filter(kept.contains) || firstNew < lastKept {
            let expanded = Set(rows.filter(\.isExpanded).map(\.name))
            for row in rows { removeRow(row) }
            for name in names { addRow(name).isExpanded = expanded.contains(name) }
        } else {
            for name in names where !kept.contains(name) { addRow(name) }
        }
        let disabledTools = model.disabledTools
        for config in configs {
            row(named: config.name)?.show(state(of: config, disabledTools: disabledTools))
        }
        gtk_widget_set_visible(emptyRow, configs.isEmpty ? 1 : 0)
        gtk_label_set_text(problemsLabel.opaque, model.problems.joined(separator: "\n"))
        gtk_widget_set_visible(problemsLabel, model.problems.isEmpty ? 0 : 1)
    }

    private func state(of config: MCPServerConfig, disabledTools: Set<MCPToolKey>) -> MCPServerRow.State {
        let server = model.server(named: config.name)
        let status = config.disabled ? MCPServer.Status.disabled : server?.status
        let enabled = (server?.tools ?? []).filter { !disabledTools.contains(MCPToolKey(server: config.name, tool: $0.name)) }.map(\.name)
        return MCPServerRow.State(config: config, status: status, enabledTools: Set(enabled))
    }

    @discardableResult
    private func addRow(_ name: String) -> MCPServerRow {
        let row = MCPServerRow(name: name)
        row.onEnabled = { [weak self] on in self?.setEnabled(on, server: name) }
        row.onToolEnabled = { [weak self] tool, on in self?.model.setToolEnabled(on, MCPToolKey(server: name, tool: tool)) }
        row.onRetry = { [weak self] in
            guard let model = self?.model else { return }
            Task { await model.retry(name) }
        }
        row.onOpenLog = { [weak self] in self?.openLog(of: name) }
        row.onRemove = { [weak self] in self?.confirmRemoval(of: name) }
        PreferenceRows.add(row.widget, to: widget)
        rows.append(row)
        return row
    }

    private func removeRow(_ row: MCPServerRow) {
        if FocusRescue.holdsFocus(in: row.widget) { gtk_widget_grab_focus(addButton) }
        adw_preferences_group_remove(widget.cast(), row.widget)
        rows.removeAll { $0 === row }
    }

    // MARK: The user's intents

    private func setEnabled(_ on: Bool, server name: String) {
        Task { [weak self, model] in
            do {
                try await model.setEnabled(on, server: name)
            } catch {
                self?.row(named: name)?.showSavedState()
                self?.showProblem(on ? tr("Could Not Switch “%s” On", name) : tr("Could Not Switch “%s” Off", name), error)
            }
        }
    }

    private func openLog(of name: String) {
        guard let file = model.server(named: name)?.log.file else { return }
        DefaultApp.open(file, from: window) { [weak self] reason in
            self?.showProblem(tr("Could Not Open the Log"), "\(file.path): \(reason)")
        }
    }

    private func confirmRemoval(of name: String) {
        guard removalDialog == nil, !closed else { return }
        removalDialog = MessageDialog(over: window, heading: tr("Remove “%s”?", name),
                                      body: tr("It is taken out of mcp.json, and its keys in your keyring are deleted."),
                                      confirming: tr("_Remove")) { [weak self] confirmed in
            guard let self else { return }
            removalDialog = nil
            guard confirmed else { return }
            UnfinishedWork.run(from: window) { [weak self, model] in
                do {
                    try await model.remove(name)
                    self?.notice(tr("Removed “%s”", name))
                } catch {
                    self?.showProblem(tr("Could Not Remove “%s”", name), error)
                }
            }
        }
    }

    /// Paste Configuration…: the pasted servers are added (a program among them runs only
    /// once the user allows it); on a problem the text comes back to be corrected.
    func showPasteDialog(text: String = "") {
        guard pasteDialog == nil, !closed else { return }
        pasteDialog = PasteMCPConfigDialog.show(over: window, text: text) { [weak self] pasted in
            guard let self else { return }
            pasteDialog = nil
            guard let pasted else { return }
            Task { [weak self, model] in
                do {
                    let added = try await model.add(pasted: pasted)
                    self?.notice(added.isEmpty ? tr("Nothing was added") : tr("Added %s", Self.quoted(added)))
                } catch {
                    self?.showProblem(tr("Could Not Add the Configuration"), error) { self?.showPasteDialog(text: pasted) }
                }
            }
        }
    }

    /// Add Manually…: the form's server is added; on a problem the form comes back as it was.
    func showAddDialog(form: MCPServerForm = MCPServerForm()) {
        guard addDialog == nil, !closed else { return }
        addDialog = AddMCPServerDialog(over: window, taken: model.configs.map(\.name), form: form) { [weak self] answer in
            guard let self else { return }
            addDialog = nil
            guard let answer else { return }
            do throws(MCPServerForm.Problem) {
                let (name, entry, secretHeaders) = try answer.entry(taken: model.configs.map(\.name))
                UnfinishedWork.run(from: window) { [weak self, model] in
                    do {
                        try await model.add(name: name, entry: entry, secretHeaders: secretHeaders)
                        self?.notice(tr("Added “%s”", name))
                    } catch {
                        self?.showProblem(tr("Could Not Add the Server"), error) { self?.showAddDialog(form: answer) }
                    }
                }
            } catch {
                showProblem(tr("Could Not Add the Server"), error.message) { [weak self] in self?.showAddDialog(form: answer) }
            }
        }
    }

    private func notice(_ text: String) {
        guard !closed else { return }
        onNotice?(text)
    }

    private func showProblem(_ heading: String, _ error: any Error, then: @escaping @MainActor () -> Void = {}) {
        showProblem(heading, "\(error)", then: then)
    }

    private func showProblem(_ heading: String, _ message: String, then: @escaping @MainActor () -> Void = {}) {
        guard !closed, alert == nil else { return }
        alert = ErrorAlert.show(over: window, heading: heading, message: message) { [weak self] in
            self?.alert = nil
            then()
        }
    }

    /// “a”, “a” and “b”, “a”, “b” and “c”.
    static func quoted(_ names: [String]) -> String {
        let quoted = names.map { tr("“%s”", $0) }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        return tr("%1$s and %2$s", quoted.dropLast().joined(separator: tr(", ")), last)
    }
}
