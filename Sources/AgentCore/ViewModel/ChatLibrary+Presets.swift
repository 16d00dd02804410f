import FoundationEssentials

/// The presets new chats start from, kept in the chat database beside the chats: listed for
/// the new-chat menu and Preferences › Presets, added, changed and deleted there.
extension ChatLibrary {
    /// The presets, in their order; empty (the failure reported) when the store cannot be read.
    public var presets: [ChatPreset] {
        do {
            return try store.presets()
        } catch {
            viewModel.status.report(tr("Could not read the presets: %s", ChatError.describe(error)), heading: tr("Could Not Read Presets"))
            return []
        }
    }

    /// The preset Ctrl+N starts from: the one a chat was last started from; nil before any was.
    public var lastUsedPreset: ChatPreset? { try? store.lastUsedPreset() }

    /// Shows an empty chat with `preset`'s settings (nil: Preferences'), saved with its first message.
    public func newChat(from preset: ChatPreset?) {
        viewModel.startNewChat(preset: preset)
        forgetLastChat()
        notify(.selection)
        if preset != nil { notify(.presetUsed) }
    }

    /// Adds `preset`, or changes the one with its id; false (the failure reported) when the store refused.
    @discardableResult
    public func savePreset(_ preset: ChatPreset) -> Bool {
        changePresets { try $0.savePreset(preset) }
    }

    @discardableResult
    public func deletePreset(_ id: UUID) -> Bool {
        changePresets { try $0.deletePreset(id) }
    }

    private func changePresets(_ body: (ChatStore) throws -> Void) -> Bool {
        do {
            try body(store)
        } catch {
            viewModel.status.report(tr("Could not change the presets: %s", ChatError.describe(error)), heading: tr("Could Not Change Presets"))
            return false
        }
        notify(.presets)
        return true
    }
}
