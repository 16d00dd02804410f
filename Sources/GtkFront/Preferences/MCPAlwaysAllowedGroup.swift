import AgentCore
import CGtk

/// Preferences › Tools › Always Allowed: the MCP tools the user answered "Always Allow"
/// for, each with Ask Again to take it back. Hidden while there are none.
@MainActor
final class MCPAlwaysAllowedGroup {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The rows shown, with the tool each stands for.
    private(set) var rows: [(key: MCPToolKey, row: UnsafeMutablePointer<GtkWidget>, button: UnsafeMutablePointer<GtkWidget>)] = []
    private let model: MCPServersModel
    /// Where the focus goes when the last row, holding it, goes.
    private let fallbackFocus: UnsafeMutablePointer<GtkWidget>
    private var closed = false
    private var observer = 0

    init(in page: UnsafeMutablePointer<GtkWidget>, model: MCPServersModel, focusWhenEmptied fallbackFocus: UnsafeMutablePointer<GtkWidget>) {
        self.model = model
        self.fallbackFocus = fallbackFocus
        widget = PreferenceRows.group(in: page, title: tr("Always Allowed"),
                                      description: tr("These MCP tools run without asking. Ask Again takes that back."))
        observer = model.observe { [weak self] in self?.refresh() }
        refresh()
    }

    func windowClosed() {
        closed = true
        model.stopObserving(observer)
    }

    private func refresh() {
        guard !closed else { return }
        let keys = model.alwaysAllowed
        gtk_widget_set_visible(widget, keys.isEmpty ? 0 : 1)
        guard keys != rows.map(\.key) else { return }
        // The focus leaves the rows before they go, and comes back to the row now in that place.
        let focused = rows.firstIndex { FocusRescue.holdsFocus(in: $0.row) }
        if focused != nil { gtk_widget_grab_focus(fallbackFocus) }
        for entry in rows { adw_preferences_group_remove(widget.cast(), entry.row) }
        rows = keys.map { key in
            let button = MnemonicButton.make(tr("_Ask Again"))
            let row = PreferenceRows.actionRow(title: tr("%1$s › %2$s", key.server, key.tool), suffix: button)
            Signals.connect(button.raw, "clicked") { [weak self] in self?.model.forgetAlwaysAllowed(key) }
            PreferenceRows.add(row, to: widget)
            return (key, row, button)
        }
        if let focused, !rows.isEmpty { gtk_widget_grab_focus(rows[min(focused, rows.count - 1)].button) }
    }
}
