import AgentCore
import CGtk

/// One MCP server in Preferences › Tools: an expander row titled with its name, its state in
/// words under it and a switch to turn it on or off; inside, why it failed (with Retry and
/// Open Log), its tools each with a switch, how it is reached (the command line or the URL,
/// never header values) and Remove. It is updated in place as the server's status changes,
/// so an open row stays open and a focused switch keeps the focus.
@MainActor
final class MCPServerRow {
    /// What the row shows: the entry, the server's status (nil: not started yet), and which
    /// of its tools are on.
    struct State: Equatable {
        let config: MCPServerConfig
        let status: MCPServer.Status?
        let enabledTools: Set<String>
    }

    let name: String
    let widget: UnsafeMutablePointer<GtkWidget>
    let enabledSwitch: UnsafeMutablePointer<GtkWidget>
    /// The rows inside, rebuilt when the entry or the status changes.
    private(set) var contentRows: [UnsafeMutablePointer<GtkWidget>] = []
    /// The tools' switches, by the server's name for each tool.
    private(set) var toolSwitches: [String: UnsafeMutablePointer<GtkWidget>] = [:]
    private var shown: State?

    var onEnabled: ((Bool) -> Void)?
    var onToolEnabled: ((String, Bool) -> Void)?
    var onRetry: (() -> Void)?
    var onOpenLog: (() -> Void)?
    var onRemove: (() -> Void)?

    init(name: String) {
        self.name = name
        widget = adw_expander_row_new()
        adw_preferences_row_set_use_markup(widget.cast(), 0)
        adw_preferences_row_set_title(widget.cast(), name)
        enabledSwitch = gtk_switch_new()
        gtk_widget_set_valign(enabledSwitch, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(enabledSwitch, tr("Use this server"))
        agent_accessible_set_label(enabledSwitch, tr("Use %s", name))
        adw_expander_row_add_action(widget.cast(), enabledSwitch)
        GtkText.addClasses(widget, "mcp-server")
        Signals.connect(enabledSwitch.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, let shown else { return }
            let on = gtk_switch_get_active(enabledSwitch.opaque) != 0
            if on == shown.config.disabled { onEnabled?(on) }
        }
    }

    var isExpanded: Bool {
        get { adw_expander_row_get_expanded(widget.cast()) != 0 }
        set { adw_expander_row_set_expanded(widget.cast(), newValue ? 1 : 0) }
    }

    var subtitle: String { adw_expander_row_get_subtitle(widget.cast()).map { String(cString: $0) } ?? "" }

    /// Shows `state`, rebuilding the rows inside only when the entry or the status changed.
    func show(_ state: State) {
        guard state != shown else { return }
        let rebuild = state.config != shown?.config || state.status != shown?.status
        shown = state
        adw_expander_row_set_subtitle(widget.cast(), Self.summary(of: state.config, status: state.status))
        gtk_switch_set_active(enabledSwitch.opaque, state.config.disabled ? 0 : 1)
        if rebuild { rebuildContents(state) }
        for (tool, toggle) in toolSwitches {
            gtk_switch_set_active(toggle.opaque, state.enabledTools.contains(tool) ? 1 : 0)
        }
    }

    /// Puts the switch back as the file has it (switching the server failed).
    func showSavedState() {
        guard let shown else { return }
        gtk_switch_set_active(enabledSwitch.opaque, shown.config.disabled ? 0 : 1)
    }

    /// The server's state in a few words, for the row's subtitle.
    nonisolated static func summary(of config: MCPServerConfig, status: MCPServer.Status?) -> String {
        if config.disabled { return tr("Off") }
        switch status {
        case nil, .starting?: return tr("Starting…")
        case .ready(let tools, _)?: return trn("%d tool", "%d tools", tools.count)
        case .failed(let reason)?: return tr("Failed: %s", firstLine(of: reason))
        case .exited(let reason)?: return tr("Ended: %s — starts again when needed", firstLine(of: reason))
        case .stopped?: return tr("Stopped — starts when next needed")
        case .declined?: return tr("Not allowed to run")
        case .disabled?: return tr("Off")
        }
    }

    private nonisolated static func firstLine(of text: String) -> String {
        text.trimmed.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    }

    private func rebuildContents(_ state: State) {
        // The focus leaves rows about to go (GTK 4.8 would read them after they are freed).
        if contentRows.contains(where: FocusRescue.holdsFocus(in:)) { gtk_widget_grab_focus(enabledSwitch) }
        for row in contentRows { adw_expander_row_remove(widget.cast(), row) }
        contentRows = []
        toolSwitches = [:]
        switch state.status {
        case .failed(let reason)?, .exited(let reason)?:
            append(problemRow(reason: reason))
        case .declined?:
            append(note(tr("You did not allow its program to run. Switch it off and on to be asked again.")))
        default:
            break
        }
        if case .ready(let tools, _)? = state.status {
            if tools.isEmpty { append(note(tr("It offers no tools."))) }
            for tool in tools { append(toolRow(tool)) }
        } else if !state.config.disabled {
            append(note(tr("Its tools are listed once it runs.")))
        }
        append(transportRow(state.config))
        let remove = MnemonicButton.make(tr("_Remove"))
        GtkText.addClasses(remove, "destructive-action")
        Signals.connect(remove.raw, "clicked") { [weak self] in self?.onRemove?() }
        append(PreferenceRows.actionRow(title: tr("Remove This Server"), suffix: remove))
    }

    private func append(_ row: UnsafeMutablePointer<GtkWidget>) {
        adw_expander_row_add_row(widget.cast(), row)
        contentRows.append(row)
    }

    /// Why it failed or ended, in full (the reason and its last lines on stderr), to read
    /// and copy, with Retry and Open Log.
    private func problemRow(reason: String) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_margin_top(box, 12)
        gtk_widget_set_margin_bottom(box, 12)
        gtk_widget_set_margin_start(box, 12)
        gtk_widget_set_margin_end(box, 12)
        let text = MonospaceBlock.make(text: reason.trimmed, maxHeight: 180, accessibleName: tr("Why %s stopped", name))
        gtk_box_append(box.cast(), text.card)
        let buttons: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        let openLog = MnemonicButton.make(tr("Open _Log"))
        let retry = MnemonicButton.make(tr("_Retry"))
        gtk_box_append(buttons.cast(), openLog)
        gtk_box_append(buttons.cast(), retry)
        gtk_box_append(box.cast(), buttons)
        Signals.connect(retry.raw, "clicked") { [weak self] in self?.onRetry?() }
        Signals.connect(openLog.raw, "clicked") { [weak self] in self?.onOpenLog?() }
        let row: UnsafeMutablePointer<GtkWidget> = gtk_list_box_row_new()
        gtk_list_box_row_set_activatable(row.cast(), 0)
        gtk_list_box_row_set_selectable(row.cast(), 0)
        gtk_list_box_row_set_child(row.cast(), box)
        return row
    }

    private func toolRow(_ tool: MCPToolDescription) -> UnsafeMutablePointer<GtkWidget> {
        let toggle: UnsafeMutablePointer<GtkWidget> = gtk_switch_new()
        let description = tool.description.trimmed
        let row = PreferenceRows.actionRow(title: tool.title, subtitle: description.isEmpty ? nil : description, suffix: toggle)
        adw_action_row_set_subtitle_lines(row.cast(), 3)
        if !description.isEmpty { agent_widget_set_tooltip_text(row, description) }
        toolSwitches[tool.name] = toggle
        let name = tool.name
        gtk_switch_set_active(toggle.opaque, shown?.enabledTools.contains(name) == true ? 1 : 0)
        Signals.connect(toggle.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, let shown else { return }
            let on = gtk_switch_get_active(toggle.opaque) != 0
            if on != shown.enabledTools.contains(name) { onToolEnabled?(name, on) }
        }
        return row
    }

    /// How it is reached: the program it runs or its URL (headers stay out: they may hold tokens).
    private func transportRow(_ config: MCPServerConfig) -> UnsafeMutablePointer<GtkWidget> {
        let (title, detail): (String, String) = switch config.transport {
        case .stdio: (tr("Runs"), config.commandLine ?? "")
        case .http(let url, _): (tr("Address"), url)
        case .sse(let url, _): (tr("Address (HTTP+SSE)"), url)
        }
        let row = PreferenceRows.actionRow(title: title, subtitle: detail)
        GtkText.addClasses(row, "mcp-transport")
        return row
    }

    private func note(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let row = PreferenceRows.actionRow(title: text)
        GtkText.addClasses(row, "dim-label")
        return row
    }
}
