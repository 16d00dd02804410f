/// How replies are generated: sampling, length, context, the default system prompt, and
/// the model run on this computer.
extension SettingsStore {
    /// The local model: "smollm2" (default) or "gemma3".
    public var localModel: LocalModel {
        get { LocalModel.all.first { $0.id == string("local", "model") } ?? .smolLM2 }
        set { set(newValue == .smolLM2 ? nil : newValue.id, "local", "model") }
    }

    public var temperature: Double? {
        get { string("generation", "temperature").flatMap(Double.init) }
        set { set(newValue.map { String($0) }, "generation", "temperature") }
    }

    public var maxTokens: Int? {
        get { string("generation", "max-tokens").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } }
        set { set(newValue.map { String($0) }, "generation", "max-tokens") }
    }

    public var generationOptions: GenerationOptions {
        GenerationOptions(temperature: temperature, maxTokens: maxTokens)
    }

    /// How many tokens of conversation a request may carry (estimated), 4096 unless set.
    public var contextBudget: Int {
        get { string("generation", "context-tokens").flatMap(Int.init).map { max(256, $0) } ?? 4096 }
        set { set(String(newValue), "generation", "context-tokens") }
    }

    /// How long a server may send nothing before Agent stops waiting (`[network] idle-timeout`,
    /// seconds; 0: never). Raise it for a big model on a slow machine with long prompts.
    public var idleTimeout: Duration? {
        guard let seconds = string("network", "idle-timeout").flatMap(Int.init) else { return HTTPRequest.defaultIdleTimeout }
        return seconds > 0 ? .seconds(seconds) : nil
    }

    /// The system prompt new chats start with.
    public var systemPrompt: String {
        get { string("generation", "system-prompt") ?? "" }
        set { set(newValue.isEmpty ? nil : newValue, "generation", "system-prompt") }
    }
}
