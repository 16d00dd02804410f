import FoundationEssentials

/// How replies are generated: sampling, length, context, the default system prompt, and
/// the model run on this computer.
extension SettingsStore {
    /// The local model: a built-in or a chosen GGUF file; SmolLM2 unless another was chosen.
    public var localModel: LocalModel {
        get { LocalModel.named(root.string("local-model")) ?? .smolLM2 }
        set { root.set("local-model", newValue.id) }
    }

    /// The GGUF files the user chose, remembered whether or not they are still there.
    public var localModelFiles: [URL] {
        get { root.strings("local-model-files").filter { $0.hasPrefix("/") }.map { URL(filePath: $0) } }
        set { root.set("local-model-files", newValue.map(\.path)) }
    }

    /// The models the local runtime can run: the installed built-ins, then the remembered
    /// files (one that has gone is still listed; starting it says so).
    public var localModelChoices: [LocalModel] {
        ((try? InstalledModels.builtIns()) ?? []) + localModelFiles.map(LocalModel.file)
    }

    /// How many CPU threads llama-server uses: by default (0) one per core.
    public var localThreads: Int {
        get {
            let chosen = root.int("local-threads")
            return chosen > 0 ? chosen : ProcessInfo.processInfo.activeProcessorCount
        }
        set { root.set("local-threads", max(0, newValue)) }
    }

    /// nil: the server's default.
    public var temperature: Double? {
        get { root.bool("custom-temperature") ? root.double("temperature") : nil }
        set {
            root.set("custom-temperature", newValue != nil)
            if let newValue { root.set("temperature", newValue) }
        }
    }

    /// nil: no limit.
    public var maxTokens: Int? {
        get { Optional(root.int("max-tokens")).flatMap { $0 > 0 ? $0 : nil } }
        set { root.set("max-tokens", newValue ?? 0) }
    }

    public var generationOptions: GenerationOptions {
        GenerationOptions(temperature: temperature, maxTokens: maxTokens)
    }

    /// How many tokens of conversation a request may carry (estimated).
    public var contextBudget: Int {
        get { max(256, root.int("context-budget")) }
        set { root.set("context-budget", newValue) }
    }

    /// The most of the context budget, in percent, that passages from knowledge folders take.
    public var knowledgeShare: Int {
        get { root.int("knowledge-share") }
        set { root.set("knowledge-share", newValue) }
    }

    /// How long a server may send nothing before Agent stops waiting (nil: never). Raise it
    /// for a big model on a slow machine with long prompts.
    public var idleTimeout: Duration? {
        let seconds = root.int("idle-timeout")
        return seconds > 0 ? .seconds(seconds) : nil
    }

    /// The system prompt new chats start with.
    public var systemPrompt: String {
        get { root.string("system-prompt") }
        set { root.set("system-prompt", newValue) }
    }
}
