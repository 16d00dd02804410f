import AgentCore
import CGtk

/// "Paste MCP Configuration": a text field for the JSON another app or a server's README
/// gives; Add hands the text on (it stays off while the field is empty).
@MainActor
enum PasteMCPConfigDialog {
    static let heading = "Paste MCP Configuration"

    /// `text`: what to start with (the text of an attempt that failed). `answered` runs
    /// once: with the text for Add, nil for Cancel.
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, text: String = "",
                     answered: @escaping @MainActor (String?) -> Void) -> MessageDialog {
        let view: UnsafeMutablePointer<GtkWidget> = gtk_text_view_new()
        gtk_text_view_set_monospace(view.cast(), 1)
        gtk_text_view_set_wrap_mode(view.cast(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(view.cast(), 0)
        GtkText.setMargins(view, vertical: 8, horizontal: 10)
        agent_accessible_set_label(view, "MCP configuration")
        let buffer = gtk_text_view_get_buffer(view.cast())
        gtk_text_buffer_set_text(buffer, text, -1)
        let scroller: UnsafeMutablePointer<GtkWidget> = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(scroller.opaque, view)
        gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(scroller, 480, 240)
        GtkText.addClasses(scroller, "card", "pasted-config")
        let dialog = MessageDialog(over: parent, heading: heading,
                                   body: "Paste the JSON from Claude Desktop, Cursor, VS Code or a server’s README.",
                                   responses: [.init(id: "cancel", label: "_Cancel"),
                                               .init(id: "add", label: "_Add", appearance: ADW_RESPONSE_SUGGESTED)],
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
