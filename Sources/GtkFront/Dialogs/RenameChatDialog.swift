import AgentCore
import CGtk

/// A small modal window to rename a chat: an entry with the title, Rename and Cancel.
@MainActor
final class RenameChatDialog {
    let window: UnsafeMutablePointer<GtkWidget>
    let entry: UnsafeMutablePointer<GtkWidget>
    private static var open: [RenameChatDialog] = []

    @discardableResult
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, title: String,
                     renamed: @escaping @MainActor (String) -> Void) -> RenameChatDialog {
        let dialog = RenameChatDialog(parent: parent, title: title, renamed: renamed)
        open.append(dialog)
        gtk_window_present(dialog.window.cast())
        return dialog
    }

    private init(parent: UnsafeMutablePointer<GtkWidget>, title: String, renamed: @escaping @MainActor (String) -> Void) {
        window = gtk_window_new()
        gtk_window_set_title(window.cast(), "Rename Chat")
        gtk_window_set_transient_for(window.cast(), parent.cast())
        gtk_window_set_modal(window.cast(), 1)
        gtk_window_set_default_size(window.cast(), 360, -1)
        gtk_window_set_destroy_with_parent(window.cast(), 1)
        let header: UnsafeMutablePointer<GtkWidget> = gtk_header_bar_new()
        gtk_header_bar_set_show_title_buttons(header.opaque, 0)
        let cancel: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_mnemonic("_Cancel")
        let rename: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_mnemonic("_Rename")
        GtkText.addClasses(rename, "suggested-action")
        gtk_header_bar_pack_start(header.opaque, cancel)
        gtk_header_bar_pack_end(header.opaque, rename)
        gtk_window_set_titlebar(window.cast(), header)
        entry = gtk_entry_new()
        gtk_editable_set_text(entry.opaque, title)
        gtk_entry_set_activates_default(entry.cast(), 1)
        agent_accessible_set_label(entry, "Chat title")
        gtk_widget_set_margin_top(entry, 18)
        gtk_widget_set_margin_bottom(entry, 18)
        gtk_widget_set_margin_start(entry, 18)
        gtk_widget_set_margin_end(entry, 18)
        gtk_window_set_child(window.cast(), entry)
        gtk_window_set_default_widget(window.cast(), rename)

        let close: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            gtk_window_destroy(window.cast())
        }
        Signals.connect(cancel.raw, "clicked") { close() }
        Signals.connect(rename.raw, "clicked") { [weak self] in
            guard let self else { return }
            renamed(String(cString: gtk_editable_get_text(entry.opaque)))
            close()
        }
        Signals.connect(window.raw, "destroy") { [weak self] in
            RenameChatDialog.open.removeAll { $0 === self }
        }
    }

    /// Presses Rename with `title` (tests).
    func submit(_ title: String) {
        gtk_editable_set_text(entry.opaque, title)
        gtk_widget_activate_default(entry)
    }
}
