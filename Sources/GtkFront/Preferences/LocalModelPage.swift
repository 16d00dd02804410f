import AgentCore
import CGtk

/// Preferences › Local Model: which small model Agent runs on this computer when chats go
/// to "This computer", and whether it is installed.
@MainActor
final class LocalModelPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    /// The choice changed.
    var onChange: (() -> Void)?
    /// One radio button per model, in `LocalModel.all` order.
    let choices: [UnsafeMutablePointer<GtkWidget>]

    init(settings: SettingsStore) {
        self.settings = settings
        let runtime = try? LocalRuntime.locate()
        let form = FormGrid()
        form.addWide(FormGrid.note("When chats go to “This computer”, Agent runs llama.cpp with one of these small models. "
            + "It starts with the first message and stops when Agent quits."))
        var buttons: [UnsafeMutablePointer<GtkWidget>] = []
        for model in LocalModel.all {
            let button: UnsafeMutablePointer<GtkWidget> = gtk_check_button_new_with_label(model.displayName)
            if let first = buttons.first { gtk_check_button_set_group(button.cast(), first.cast()) }
            gtk_check_button_set_active(button.cast(), settings.localModel == model ? 1 : 0)
            form.addWide(button)
            let installed = runtime?.has(model) ?? false
            form.addWide(FormGrid.note(Self.describe(model) + (installed ? "" : " Not installed: run \(model.installCommand).")))
            buttons.append(button)
        }
        choices = buttons
        widget = form.widget
        for (model, button) in zip(LocalModel.all, buttons) {
            Signals.connect(button.raw, "toggled") { [weak self] in
                guard let self, gtk_check_button_get_active(button.cast()) != 0, settings.localModel != model else { return }
                settings.localModel = model
                onChange?()
            }
        }
    }

    private static func describe(_ model: LocalModel) -> String {
        model == .smolLM2 ? "The smallest and quickest; plain chat." : "Larger and slower; can call tools (location, date and time)."
    }
}
