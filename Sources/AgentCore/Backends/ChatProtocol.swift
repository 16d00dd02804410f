/// The wire protocols Agent speaks, one per kind of server.
public enum ChatProtocol: String, Sendable, CaseIterable {
    /// OpenAI-compatible `chat/completions` over Server-Sent Events (llama.cpp, vLLM, LM Studio, OpenAI).
    case openai
    /// Ollama's `/api/chat`, streamed as newline-delimited JSON.
    case ollama
    /// The llmtools harness: `/llmtools`, SSE carrying Ollama-format JSON, context kept by `appID`.
    case llmtools

    /// How Preferences names it.
    public var displayName: String {
        switch self {
        case .openai: tr("OpenAI-compatible")
        case .ollama: "Ollama"
        // TRANSLATORS: "llmtools" is a name; a harness that runs a model with tools.
        case .llmtools: tr("llmtools harness")
        }
    }

    public var defaultAPIPath: String {
        switch self {
        case .openai: "/v1/chat/completions"
        case .ollama: "/api/chat"
        case .llmtools: "/llmtools"
        }
    }
}
