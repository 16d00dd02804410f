import FoundationEssentials

/// A named set of chat settings a new chat starts from ("Translator", "Terse Code Reviewer"),
/// kept in the chat database so the window and `agent-cli --preset` share them.
public struct ChatPreset: Sendable, Equatable, Identifiable {
    public let id: UUID
    public var name: String
    /// nil: Preferences' system prompt.
    public var systemPrompt: String?
    public var model: ModelChoice?
    public var temperature: Double?
    public var maxTokens: Int?
    public var toolsEnabled: Bool
    /// When a chat was last started from it; the newest is what Ctrl+N starts from.
    public var lastUsed: Date?

    public init(id: UUID = UUID(), name: String, systemPrompt: String? = nil, model: ModelChoice? = nil, temperature: Double? = nil,
                maxTokens: Int? = nil, toolsEnabled: Bool = true, lastUsed: Date? = nil) {
        self.id = id
        self.name = name
        self.systemPrompt = systemPrompt
        self.model = model
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.toolsEnabled = toolsEnabled
        self.lastUsed = lastUsed
    }

    /// The settings a chat started from this preset begins with.
    public func settings(defaultPrompt: String) -> ChatSettings {
        ChatSettings(systemPrompt: systemPrompt ?? defaultPrompt, model: model, temperature: temperature, maxTokens: maxTokens,
                     toolsEnabled: toolsEnabled)
    }

    /// Of `presets`, the one a chat was last started from; nil when none ever was.
    public static func lastUsed(in presets: [ChatPreset]) -> ChatPreset? {
        presets.filter { $0.lastUsed != nil }.max { ($0.lastUsed ?? .distantPast) < ($1.lastUsed ?? .distantPast) }
    }

    /// What it sets, shortly: "temperature 0.3, no tools, “You translate. Reply with …”".
    public var summary: String {
        var parts: [String] = []
        // TRANSLATORS: a part of a preset's summary; %s is a model's name.
        if let model { parts.append(tr("model %s", model.name)) }
        // TRANSLATORS: a part of a preset's summary; %s is a number, "0.3".
        if let temperature { parts.append(tr("temperature %s", ChatSettings.format(temperature))) }
        // TRANSLATORS: a part of a preset's summary: the longest reply.
        if let maxTokens { parts.append(trn("at most %d token", "at most %d tokens", maxTokens)) }
        // TRANSLATORS: a part of a preset's summary.
        if !toolsEnabled { parts.append(tr("no tools")) }
        if let systemPrompt {
            // TRANSLATORS: a part of a preset's summary; %s is the first words of its system prompt.
            parts.append(systemPrompt.isEmpty ? tr("no system prompt") : tr("“%s”", Self.firstWords(of: systemPrompt)))
        } else {
            // TRANSLATORS: a part of a preset's summary: it uses the system prompt set in Preferences.
            parts.append(tr("the system prompt of Preferences"))
        }
        // TRANSLATORS: what separates the parts of a preset's summary.
        return parts.joined(separator: tr(", "))
    }

    private static func firstWords(of text: String, count: Int = 8) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.prefix(count).joined(separator: " ") + (words.count > count ? " …" : "")
    }
}
