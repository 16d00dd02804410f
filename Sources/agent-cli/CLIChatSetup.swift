import AgentCore
import Foundation

/// The chat a run talks in and the settings it asks with, settled before anything is read or
/// sent. `--system`, `--temperature`, `--max-tokens`, `--model`, `--no-tools` and `--preset`
/// (explicit options over the preset's) become a new chat's own settings (`--chat new`), or
/// hold for the one prompt without `--chat`. An existing chat (`--chat ID`) asks with its
/// stored settings; `--system`, `--temperature` and `--max-tokens` change them, as the window's
/// settings panel does, while `--model` and `--no-tools` hold for this turn alone.
struct CLIChatSetup {
    /// Open when the run stores its turn or starts from a preset.
    let store: ChatStore?
    /// The chat `--chat ID` names; nil for `--chat new` and without `--chat`.
    let existing: ChatSummary?
    /// What the chat keeps as its settings.
    let kept: ChatSettings
    /// What this turn asks with: `kept` and the options that hold for this turn alone.
    let turn: ChatSettings
    /// The preset a new chat starts from.
    let preset: ChatPreset?

    /// Why the chat options do not go together; nil when they do.
    static func usageProblem(_ options: LaunchOptions) -> String? {
        let existingChat = options.chat.flatMap(UUID.init(uuidString:)) != nil
        if options.regenerate, options.editMessage != nil { return tr("--regenerate and --edit do not go together") }
        if options.regenerate || options.editMessage != nil, !existingChat {
            return tr("--regenerate and --edit need --chat ID, a stored chat")
        }
        if options.regenerate, !options.words.isEmpty { return tr("--regenerate takes no prompt: it asks the chat's last question again") }
        if options.regenerate, !options.attachments.isEmpty { return tr("--regenerate asks the question again as it was: no --attach") }
        if options.preset != nil, existingChat { return tr("--preset starts a chat: use it with --chat new, or without --chat") }
        return nil
    }

    /// `defaultPrompt`: Preferences' system prompt, which a new chat starts with.
    init(_ options: LaunchOptions, defaultPrompt: String) throws {
        let store = options.chat != nil || options.preset != nil ? try ChatStore() : nil
        var existing: ChatSummary?
        if let spec = options.chat, spec != "new" {
            guard let id = UUID(uuidString: spec), let chat = try store?.chat(id) else { throw StoredChat.UnknownChat(id: spec) }
            existing = chat
        }
        var preset: ChatPreset?
        if let name = options.preset, let store { preset = try CLIPresets.named(name, in: store) }
        var kept: ChatSettings
        if let existing {
            kept = existing.settings
        } else {
            // A one-off prompt has carried no system prompt of Preferences' and still does not.
            let base = options.chat == nil ? "" : defaultPrompt
            kept = preset?.settings(defaultPrompt: base) ?? ChatSettings(systemPrompt: base)
            if let model = options.model { kept.model = .server(model) }
            if options.noTools { kept.toolsEnabled = false }
        }
        if let prompt = options.systemPrompt { kept.systemPrompt = prompt }
        if let temperature = options.generation.temperature { kept.temperature = temperature }
        if let maxTokens = options.generation.maxTokens { kept.maxTokens = maxTokens }
        var turn = kept
        if let model = options.model { turn.model = .server(model) }
        if options.noTools { turn.toolsEnabled = false }
        self.store = store
        self.existing = existing
        self.kept = kept
        self.turn = turn
        self.preset = preset
    }

    /// Whether the existing chat's settings change with this run.
    var changesSettings: Bool { existing.map { $0.settings != kept } ?? false }
}
