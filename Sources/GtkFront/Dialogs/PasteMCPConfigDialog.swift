import AgentCore
import CGtk

/// "Paste MCP Configuration": a text field for the JSON another app or a server's README
/// gives; Add hands the text on (it stays off while the field is empty).
@MainActor
enum PasteMCPConfigDialog {
    static let heading = tr("Paste MCP Configuration")

    /// `text`: what to start with (the text of an attempt that failed). `answered` runs
    /// once: with the text for Add, nil for Cancel.
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, text: String = "",
                     answered: @escaping @MainActor (String?) -> Void) -> MessageDialog {
        let (view, scroller) = PreferenceRows.textArea(text, label: tr("MCP configuration"), height: 240, monospace: true)
        gtk_widget_set_size_request(scroller, 480, 240)
        GtkText.addClasses(scroller, "pasted-config")
        let buffer = gtk_text_view_get_buffer(view.cast())
        let dialog = MessageDialog(over: parent, heading: heading,
                                   body: tr("Paste the JSON from Claude Desktop, Cursor, VS Code or a server’s README."),
                                   responses: [.init(id: "cancel", label: tr("_Cancel")),
                                               .init(id: "add", label: tr("_Add"), appearance: ADW_RESPONSE_SUGGESTED)],
                                   defaultResponse: "add", closeResponse: "cancel", extra: scroller) { id in
            answered(id == "add" ? GtkText.contents(of: buffer) : nil)
        }
        let update = { dialog.setEnabled(!GtkText.contents(of: buffer).trimmed.isEmpty, response: "add") }
        update()
        if let buffer { Signals.connect(UnsafeMutableRawPointer(buffer), "changed") { update() } }
        gtk_widget_grab_focus(view)
        return dialog
    }
}
