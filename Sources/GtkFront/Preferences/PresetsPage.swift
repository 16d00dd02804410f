import AgentCore
import CGtk
import FoundationEssentials

/// Preferences › Presets: the presets new chats can start from, each a row that opens it in
/// the settings form, with a button to delete it (asked first); + adds one. Changes are
/// written at once, to the chat database the new-chat menu and `agent-cli --preset` read.
@MainActor
final class PresetsPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let addButton: UnsafeMutablePointer<GtkWidget>
    private let group: UnsafeMutablePointer<GtkWidget>
    private let library: ChatLibrary
    private let models: [ChatSettingsForm.ModelOption]
    private let fallback: GenerationOptions
    private let window: UnsafeMutablePointer<GtkWidget>
    /// The rows shown, one per preset, in order.
    private(set) var rows: [(preset: ChatPreset, row: UnsafeMutablePointer<GtkWidget>, delete: UnsafeMutablePointer<GtkWidget>)] = []
    /// The preset editor while it is open.
    private(set) var editor: SettingsDialog?

    init(library: ChatLibrary, models: [ChatSettingsForm.ModelOption], fallback: GenerationOptions,
         window: UnsafeMutablePointer<GtkWidget>) {
        self.library = library
        self.models = models
        self.fallback = fallback
        self.window = window
        widget = PreferenceRows.page(title: tr("Presets"), icon: "view-list-bullet-symbolic", name: "presets")
        group = PreferenceRows.group(in: widget, title: tr("Presets"),
                                     description: tr("A new chat can start from one of these: the new-chat button’s menu lists them, and Ctrl+N starts from the one used last. Chats keep their own copy of the settings."))
        addButton = PreferenceRows.addButton(in: group, tooltip: tr("Add a Preset"))
        Signals.connect(addButton.raw, "clicked") { [weak self] in self?.edit(nil) }
        reload()
    }

    /// Lists the presets as the store has them (the window calls it when they change).
    func reload() {
        for shown in rows { adw_preferences_group_remove(group.cast(), shown.row) }
        rows = library.presets.map { preset in
            let delete: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("user-trash-symbolic")
            GtkText.addClasses(delete, "flat")
            gtk_widget_set_valign(delete, GTK_ALIGN_CENTER)
            agent_widget_set_tooltip_text(delete, tr("Delete “%s”", preset.name))
            agent_accessible_set_label(delete, tr("Delete “%s”", preset.name))
            let row = PreferenceRows.actionRow(title: preset.name, subtitle: preset.summary)
            adw_action_row_set_subtitle_lines(row.cast(), 2)
            adw_action_row_add_suffix(row.cast(), delete)
            adw_action_row_add_suffix(row.cast(), gtk_image_new_from_icon_name("go-next-symbolic"))
            gtk_list_box_row_set_activatable(row.cast(), 1)
            Signals.connect(row.raw, "activated") { [weak self] in self?.edit(preset) }
            Signals.connect(delete.raw, "clicked") { [weak self] in self?.confirmDeletion(of: preset) }
            adw_preferences_group_add(group.cast(), row)
            return (preset, row, delete)
        }
    }

    /// Opens `preset` (nil: a new one) in the settings form; Save keeps it.
    func edit(_ preset: ChatPreset?) {
        guard editor == nil else { return }
        let form = ChatSettingsForm(preset?.settings(defaultPrompt: "") ?? ChatSettings(), models: models, name: preset?.name ?? "",
                                    promptNote: tr("Empty: the system prompt of Preferences › Generation."), fallback: fallback)
        let others = Set(rows.filter { $0.preset.id != preset?.id }.map { $0.preset.name.lowercased() })
        let dialog = SettingsDialog(over: window, title: preset == nil ? tr("New Preset") : tr("Edit Preset"), form: form,
                                    acceptsName: { !others.contains($0.lowercased()) }) { [weak self] form in
            let settings = form.settings
            self?.library.savePreset(ChatPreset(id: preset?.id ?? UUID(), name: form.name,
                                                systemPrompt: settings.systemPrompt.isEmpty ? nil : settings.systemPrompt,
                                                model: settings.model, temperature: settings.temperature, maxTokens: settings.maxTokens,
                                                toolsEnabled: settings.toolsEnabled, lastUsed: preset?.lastUsed))
        }
        editor = dialog
        Signals.connect(dialog.window.raw, "destroy") { [weak self] in self?.editor = nil }
        dialog.present()
    }

    private func confirmDeletion(of preset: ChatPreset) {
        let library = library
        _ = MessageDialog(over: window, heading: tr("Delete “%s”?", preset.name),
                          body: tr("Chats started from it keep their settings."), confirming: tr("_Delete")) { confirmed in
            if confirmed { library.deletePreset(preset.id) }
        }
    }
}
