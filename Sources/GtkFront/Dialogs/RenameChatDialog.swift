import AgentCore
import CGtk

/// Renames a chat: a message dialog with the title in an entry; Enter or Rename renames.
@MainActor
enum RenameChatDialog {
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, title: String,
                     renamed: @escaping @MainActor (String) -> Void) -> MessageDialog {
        let entry: UnsafeMutablePointer<GtkWidget> = gtk_entry_new()
        gtk_editable_set_text(entry.opaque, title)
        gtk_entry_set_activates_default(entry.cast(), 1)
        agent_accessible_set_label(entry, tr("Chat title"))
        let dialog = MessageDialog(over: parent, heading: tr("Rename Chat"), body: "",
                                   responses: [.init(id: "cancel", label: tr("_Cancel")),
                                               .init(id: "rename", label: tr("_Rename"), appearance: ADW_RESPONSE_SUGGESTED)],
                                   defaultResponse: "rename", closeResponse: "cancel", extra: entry) { id in
            guard id == "rename" else { return }
            renamed(String(cString: gtk_editable_get_text(entry.opaque)))
        }
        gtk_widget_grab_focus(entry)
        return dialog
    }
}
