import AgentCore
import CGtk

/// Preferences › Local Model: which small model Agent runs on this computer when chats go
/// to "This computer", and whether it is installed.
@MainActor
final class LocalModelPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// One radio button per model, in `LocalModel.all` order.
    let choices: [UnsafeMutablePointer<GtkWidget>]

    init(settings: SettingsStore) {
        widget = PreferenceRows.page(title: "Local Model", icon: "computer-symbolic", name: "local-model")
        let group = PreferenceRows.group(in: widget, title: "The Model on This Computer",
                                         description: "When chats go to “This computer”, Agent runs llama.cpp with one of these "
                                             + "small models. It starts with the first message and stops when Agent quits.")
        let runtime = try? LocalRuntime.locate()
        var buttons: [UnsafeMutablePointer<GtkWidget>] = []
        for model in LocalModel.all {
            let button: UnsafeMutablePointer<GtkWidget> = gtk_check_button_new()
            if let first = buttons.first { gtk_check_button_set_group(button.cast(), first.cast()) }
            gtk_check_button_set_active(button.cast(), settings.localModel == model ? 1 : 0)
            let installed = runtime?.has(model) ?? false
            let row: UnsafeMutablePointer<GtkWidget> = adw_action_row_new()
            adw_preferences_row_set_use_markup(row.cast(), 0)
            adw_preferences_row_set_title(row.cast(), model.displayName)
            adw_action_row_set_subtitle(row.cast(), Self.describe(model) + (installed ? "" : " Not installed: run \(model.installCommand)."))
            adw_action_row_add_prefix(row.cast(), button)
            adw_action_row_set_activatable_widget(row.cast(), button)
            agent_accessible_set_label(button, model.displayName)
            PreferenceRows.add(row, to: group)
            buttons.append(button)
            Signals.connect(button.raw, "toggled") {
                guard gtk_check_button_get_active(button.cast()) != 0, settings.localModel != model else { return }
                settings.localModel = model
            }
        }
        choices = buttons
    }

    private static func describe(_ model: LocalModel) -> String {
        model == .smolLM2 ? "The smallest and quickest; plain chat." : "Larger and slower; can call tools (location, date and time)."
    }
}
