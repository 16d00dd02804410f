import AgentCore
import CGtk

/// A modal window around a `ChatSettingsForm` with Cancel and Save in its header — the chat's
/// settings from the chat menu, a preset from Preferences. Escape or Cancel closes it with
/// nothing changed; Save hands the form to `saved` and closes it.
@MainActor
final class SettingsDialog {
    let window: UnsafeMutablePointer<GtkWidget>
    let form: ChatSettingsForm
    let saveButton: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    private let acceptsName: (String) -> Bool

    /// `acceptsName`: whether a preset may take the name typed (another has it already).
    init(over parent: UnsafeMutablePointer<GtkWidget>, title: String, form: ChatSettingsForm,
         acceptsName: @escaping (String) -> Bool = { _ in true }, saved: @escaping @MainActor (ChatSettingsForm) -> Void) {
        self.form = form
        self.acceptsName = acceptsName
        window = adw_window_new()
        gtk_window_set_title(window.cast(), title)
        SecondaryWindow.place(window, over: parent)
        gtk_window_set_default_size(window.cast(), 460, 640)
        gtk_widget_set_size_request(window, 340, 360)

        let header: UnsafeMutablePointer<GtkWidget> = adw_header_bar_new()
        adw_header_bar_set_show_start_title_buttons(OpaquePointer(header), 0)
        adw_header_bar_set_show_end_title_buttons(OpaquePointer(header), 0)
        cancelButton = MnemonicButton.make(tr("_Cancel"))
        saveButton = MnemonicButton.make(tr("_Save"))
        GtkText.addClasses(saveButton, "suggested-action")
        adw_header_bar_pack_start(OpaquePointer(header), cancelButton)
        adw_header_bar_pack_end(OpaquePointer(header), saveButton)
        let content: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(content.cast(), header)
        gtk_widget_set_vexpand(form.widget, 1)
        gtk_box_append(content.cast(), form.widget)
        adw_window_set_content(window.cast(), content)
        gtk_window_set_default_widget(window.cast(), saveButton)

        let shown = window
        Signals.connect(cancelButton.raw, "clicked") { gtk_window_destroy(shown.cast()) }
        Signals.connect(saveButton.raw, "clicked") { [weak self] in
            guard let self else { return }
            saved(self.form)
            gtk_window_destroy(shown.cast())
        }
        Shortcuts.bindWhenUnused(["Escape": "window.close"], in: window)
        if form.nameRow != nil {
            form.onNameChanged = { [weak self] in self?.nameChanged() }
            nameChanged()
        }
    }

    /// Shows it with the keyboard on its first row (the name, for a preset).
    func present() {
        gtk_window_present(window.cast())
        gtk_widget_grab_focus(form.nameRow ?? form.modelRow)
    }

    /// A preset needs a name, one no other preset has: until then Save is off, and a name
    /// taken shows as an error with a tooltip saying why.
    private func nameChanged() {
        let name = form.name
        let taken = !name.isEmpty && !acceptsName(name)
        gtk_widget_set_sensitive(saveButton, name.isEmpty || taken ? 0 : 1)
        guard let nameRow = form.nameRow else { return }
        if taken { gtk_widget_add_css_class(nameRow, "error") } else { gtk_widget_remove_css_class(nameRow, "error") }
        agent_widget_set_tooltip_text(nameRow, taken ? tr("Another preset has this name") : nil)
    }
}
