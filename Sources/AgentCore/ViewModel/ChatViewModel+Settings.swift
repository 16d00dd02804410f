import FoundationEssentials

/// A chat's own settings — system prompt, model, temperature, reply length, tools — kept
/// with it and carried by its requests; a new chat starts from a preset's, or from
/// Preferences'.
extension ChatViewModel {
    /// What the chat on screen asks of the model (a new chat's before its first message).
    public var settings: ChatSettings { chat?.settings ?? unsavedSettings }

    /// The preset the chat on screen was started from, by name.
    public var presetName: String? { chat == nil ? unsavedPreset : chat?.preset }

    /// What differs from a new plain chat's settings, as short phrases ("temperature 0.3").
    public var settingsDifferences: [String] {
        var phrases = settings.differences(fromDefaultPrompt: defaultSystemPrompt)
        if let model = settings.model { phrases.insert(displayName(of: model), at: 0) }
        return phrases
    }

    /// Keeps `changed` as the chat's settings and uses them from its next request on (a new
    /// chat's from its first message on); nothing changes when the store refused.
    public func apply(_ changed: ChatSettings) {
        if var summary = chat, let writer {
            guard writer.setSettings(summary.id, changed) else { return }
            summary.settings = changed
            pager?.update(summary)
            onChatSaved?(summary)
        } else {
            unsavedSettings = changed
        }
        missingModel = nil
        applyChosenModel()
        notify(.settings)
        notify(.status)
    }

    /// An empty chat with `preset`'s settings (nil: Preferences'); it is saved with its first message.
    public func startNewChat(preset: ChatPreset?) {
        startNewChat()
        guard let preset else { return }
        unsavedPreset = preset.name
        unsavedSettings = preset.settings(defaultPrompt: defaultSystemPrompt)
        if let store {
            do {
                try store.markPresetUsed(preset.id)
            } catch {
                status.report(error)
            }
        }
        applyChosenModel()
        notify(.settings)
        notify(.status)
    }
}
