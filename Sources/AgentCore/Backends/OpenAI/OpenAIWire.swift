import FoundationEssentials

/// Optional sampling settings sent with a request; nil fields are left out.
public struct GenerationOptions: Sendable, Equatable {
    public var temperature: Double?
    public var seed: Int?
    public var maxTokens: Int?

    public init(temperature: Double? = nil, seed: Int? = nil, maxTokens: Int? = nil) {
        self.temperature = temperature
        self.seed = seed
        self.maxTokens = maxTokens
    }
}

/// The body of `POST /v1/chat/completions`.
enum OpenAIRequestBody {
    static func make(model: String, round: ChatRound, options: GenerationOptions) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("model", .string(model)),
            ("messages", .array(WireMessage.expand(round.messages).map(encode))),
            ("stream", .bool(true)),
            // Token counts in a last chunk, for the reply's tokens per second.
            ("stream_options", .object([("include_usage", .bool(true))])),
        ]
        if !round.tools.isEmpty { members.append(("tools", .array(round.tools.map(\.wireJSON)))) }
        if let temperature = options.temperature { members.append(("temperature", .number(temperature))) }
        if let seed = options.seed { members.append(("seed", .number(Double(seed)))) }
        if let maxTokens = options.maxTokens { members.append(("max_tokens", .number(Double(maxTokens)))) }
        return .object(members)
    }

    private static func encode(_ message: WireMessage) -> JSONValue {
        switch message {
        case .plain(let role, let content, let images) where !images.isEmpty:
            let text: [JSONValue] = content.isEmpty ? [] : [.object([("type", .string("text")), ("text", .string(content))])]
            let pictures = images.map { image -> JSONValue in
                .object([("type", .string("image_url")), ("image_url", .object([("url", .string(image.dataURI))]))])
            }
            return .object([("role", .string(role.rawValue)), ("content", .array(text + pictures))])
        case .plain(let role, let content, _):
            return .object([("role", .string(role.rawValue)), ("content", .string(content))])
        case .assistantCalls(let content, let calls):
            return .object([
                ("role", .string("assistant")),
                ("content", content.isEmpty ? .null : .string(content)),
                ("tool_calls", .array(calls.map { call in
                    .object([
                        ("id", .string(call.id)),
                        ("type", .string("function")),
                        ("function", .object([("name", .string(call.name)), ("arguments", .string(call.arguments.serialized))])),
                    ])
                })),
            ])
        case .toolResult(let call):
            return .object([("role", .string("tool")), ("tool_call_id", .string(call.id)), ("content", .string(call.result ?? ""))])
        }
    }
}

/// One `data:` payload of a streamed chat completion. Every field is optional: servers
/// send `content: null`, empty `choices` (usage chunks) and bare `error` objects.
struct ChatCompletionChunk {
    /// A piece of one tool call; pieces with the same `index` make one call.
    struct ToolCallFragment {
        let index: Int
        let id: String?
        let name: String?
        let arguments: String?
    }

    let model: String?
    let created: Double?
    let hasChoices: Bool
    /// `choices[0].delta.content`.
    let content: String?
    /// `choices[0].delta.reasoning_content` (llama.cpp, DeepSeek, vLLM) or `.reasoning`
    /// (OpenRouter, Ollama's OpenAI endpoint).
    let reasoning: String?
    /// `choices[0].delta.tool_calls`.
    let toolCalls: [ToolCallFragment]
    /// `choices[0].finish_reason`.
    let finishReason: String?
    /// The server's message when the chunk is an `{"error": …}` report.
    let errorMessage: String?
    /// `usage`, sent with `stream_options.include_usage`.
    let usage: TokenUsage?

    /// Reads a chunk; nil when the payload is not a JSON object. Each object is read in one
    /// pass over its members (a later duplicate wins, as with `JSONValue`'s subscript): this
    /// runs for every token.
    init?(_ json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        var model: String?, created: Double?, first: JSONValue?, hasChoices = false
        var error: JSONValue?, reportedUsage: JSONValue?, timingsValue: JSONValue?
        for (key, value) in members {
            switch key {
            case "model": model = value.stringValue
            case "created": created = value.numberValue
            case "choices":
                first = value[0]
                hasChoices = first != nil
            case "error": error = value
            case "usage": reportedUsage = value
            case "timings": timingsValue = value
            default: break
            }
        }
        var delta: JSONValue?, finishReason: String?
        for (key, value) in first?.objectValue ?? [] {
            switch key {
            case "delta": delta = value
            case "finish_reason": finishReason = value.stringValue
            default: break
            }
        }
        var content: String?, reasoningContent: String?, reasoning: String?, toolCalls: JSONValue?
        for (key, value) in delta?.objectValue ?? [] {
            switch key {
            case "content": content = value.stringValue
            case "reasoning_content": reasoningContent = value.stringValue
            case "reasoning": reasoning = value.stringValue
            case "tool_calls": toolCalls = value
            default: break
            }
        }
        self.model = model
        self.created = created
        self.hasChoices = hasChoices
        self.content = content
        self.reasoning = reasoningContent ?? reasoning
        self.toolCalls = (toolCalls?.arrayValue ?? []).enumerated().map { position, fragment in
            ToolCallFragment(index: fragment["index"]?.intValue ?? position,
                             id: fragment["id"]?.stringValue,
                             name: fragment["function"]?["name"]?.stringValue,
                             arguments: fragment["function"]?["arguments"]?.stringValue)
        }
        self.finishReason = finishReason
        errorMessage = error.flatMap { $0.isNull ? nil : ServerErrorBody.message(in: $0) }
        let reported = reportedUsage.flatMap { usage in
            usage.isNull ? nil : TokenUsage(promptTokens: usage["prompt_tokens"]?.intValue,
                                             completionTokens: usage["completion_tokens"]?.intValue)
        }
        // llama.cpp's own figures, with the time spent generating (its prompt count leaves
        // out cached tokens: `usage` has the say where both are sent).
        let timings = timingsValue.flatMap { timings in
            timings.isNull ? nil : TokenUsage(promptTokens: timings["prompt_n"]?.intValue,
                                               completionTokens: timings["predicted_n"]?.intValue,
                                               generationSeconds: timings["predicted_ms"]?.numberValue.map { $0 / 1000 })
        }
        usage = reported.map { timings?.updated(with: $0) ?? $0 } ?? timings
    }
}
