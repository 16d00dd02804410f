import AgentCore
import CGtk
import FoundationEssentials

/// The window and chat settings: the chat's own settings panel (Ctrl+I), new chats from a
/// preset (the new-chat menu, Ctrl+N from the one used last), and Preferences › Presets.
extension ChatWindow {
    func installSettingsActions() {
        let target = window.raw
        Actions.add("chat-settings", to: target) { [weak self] in self?.showChatSettings() }
        guard let library else { return }
        Actions.add("new-chat", to: target) { [weak self] in self?.startNewChat(from: library.lastUsedPreset) }
        Actions.add("new-chat-from", to: target, taking: { [weak self] id in
            // A preset deleted since the menu was built starts nothing.
            guard let preset = library.presets.first(where: { $0.id.uuidString == id }) else { return }
            self?.startNewChat(from: preset)
        })
        Actions.add("manage-presets", to: target) { [weak self] in
            self?.showPreferences()
            self?.preferencesWindow?.showPresets()
        }
        Actions.setEnabled(preferences != nil, "manage-presets", in: target)
    }

    /// An empty chat with `preset`'s settings (nil: Preferences'), ready for its first message.
    private func startNewChat(from preset: ChatPreset?) {
        library?.newChat(from: preset)
        showChat()
        composer.input.focus()
    }

    /// What a switched-on temperature or reply length starts from in a settings form: Preferences'.
    var generationDefaults: GenerationOptions { preferences?.settings.generationOptions ?? GenerationOptions() }

    /// The models a settings form offers: the default, the local models, and the server's
    /// once it has listed them.
    var modelOptions: [ChatSettingsForm.ModelOption] {
        var options: [ChatSettingsForm.ModelOption] = [(nil, tr("Default (%s)", viewModel.defaultConnection.modelName))]
        options += viewModel.models.local.map { (ModelChoice.local($0), tr("%s (this computer)", $0.displayName)) }
        if case .listed(let names) = viewModel.models.server { options += names.map { (ModelChoice.server($0), $0) } }
        return options
    }

    /// Opens the chat's settings; Save uses them from the next request on.
    func showChatSettings() {
        if let settingsDialog {
            settingsDialog.present()
            return
        }
        showChat()
        viewModel.listModels()
        let form = ChatSettingsForm(viewModel.settings, models: modelOptions, name: nil,
                                    promptNote: tr("What the model is told before this chat. Empty: nothing."), fallback: generationDefaults)
        let viewModel = viewModel
        let dialog = SettingsDialog(over: window, title: tr("Chat Settings"), form: form) { viewModel.apply($0.settings) }
        settingsDialog = dialog
        Signals.connect(dialog.window.raw, "destroy") { [weak self] in
            guard let self else { return }
            settingsDialog = nil
            // Closed by the user, not with the window: the message field takes the keyboard back.
            if gtk_widget_in_destruction(window) == 0 { composer.input.focus() }
        }
        dialog.present()
    }
}
