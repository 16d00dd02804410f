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
        if let model { parts.append("model \(model.name)") }
        if let temperature { parts.append("temperature \(ChatSettings.format(temperature))") }
        if let maxTokens { parts.append("at most \(maxTokens) tokens") }
        if !toolsEnabled { parts.append("no tools") }
        if let systemPrompt {
            parts.append(systemPrompt.isEmpty ? "no system prompt" : "“\(Self.firstWords(of: systemPrompt))”")
        } else {
            parts.append("the system prompt of Preferences")
        }
        return parts.joined(separator: ", ")
    }

    private static func firstWords(of text: String, count: Int = 8) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.prefix(count).joined(separator: " ") + (words.count > count ? " …" : "")
    }
}
