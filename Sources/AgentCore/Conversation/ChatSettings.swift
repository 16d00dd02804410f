import FoundationEssentials

/// What a chat asks of the model, kept with the chat: its system prompt, model, sampling
/// temperature, longest reply and whether tools are offered. A setting left nil follows
/// Preferences (the default connection's model, its temperature and length).
public struct ChatSettings: Sendable, Equatable {
    public var systemPrompt: String
    /// The chat's own model; nil: the default.
    public var model: ModelChoice?
    /// nil: as in Preferences.
    public var temperature: Double?
    /// The longest reply, in tokens; nil: as in Preferences.
    public var maxTokens: Int?
    /// Whether the model is offered tools (Agent's own and the MCP servers').
    public var toolsEnabled: Bool

    public init(systemPrompt: String = "", model: ModelChoice? = nil, temperature: Double? = nil, maxTokens: Int? = nil,
                toolsEnabled: Bool = true) {
        self.systemPrompt = systemPrompt
        self.model = model
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.toolsEnabled = toolsEnabled
    }

    /// The generation options a request carries: these settings over `defaults` (Preferences').
    public func options(over defaults: GenerationOptions) -> GenerationOptions {
        var options = defaults
        if let temperature { options.temperature = temperature }
        if let maxTokens { options.maxTokens = maxTokens }
        return options
    }

    /// The settings that differ from a new chat's (`defaultPrompt` is Preferences' system
    /// prompt), as short phrases for the window to show: "own system prompt", "temperature 0.3".
    public func differences(fromDefaultPrompt defaultPrompt: String) -> [String] {
        var phrases: [String] = []
        if systemPrompt != defaultPrompt {
            // TRANSLATORS: how a chat's settings differ from a new chat's: it has a system prompt of its own.
            phrases.append(systemPrompt.isEmpty ? tr("no system prompt") : tr("own system prompt"))
        }
        // TRANSLATORS: how a chat's settings differ from a new chat's; %s is a number, "0.3".
        if let temperature { phrases.append(tr("temperature %s", Self.format(temperature))) }
        // TRANSLATORS: how a chat's settings differ from a new chat's: the longest reply.
        if let maxTokens { phrases.append(trn("at most %d token", "at most %d tokens", maxTokens)) }
        // TRANSLATORS: how a chat's settings differ from a new chat's.
        if !toolsEnabled { phrases.append(tr("no tools")) }
        return phrases
    }

    /// A temperature as the user typed it, in their locale's digits: "0.3", "1", "0,75".
    public static func format(_ temperature: Double) -> String {
        UserLocale.number(temperature, upToFractionDigits: 2)
    }
}
