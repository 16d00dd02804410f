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
struct ChatCompletionChunk: Equatable {
    /// A piece of one tool call; pieces with the same `index` make one call, unless one
    /// brings another `id` (`OpenAIChunkReader`). Without an `index`, its place in the chunk.
    struct ToolCallFragment: Equatable {
        let index: Int
        let id: String?
        let name: String?
        let arguments: String?
    }

    let model: String?
    let created: Double?
    let hasChoices: Bool
    /// `choices[0].delta.content`.
    private(set) var content: String?
    /// Where in the text the string `content` was read from lies, quotes included, when it
    /// is a string: the same text with another string there is the same chunk with that
    /// string as its content (`ChatCompletionChunkTemplate`).
    private(set) var contentRange: Range<Int>?
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

    /// Reads a chunk from its JSON text; nil when it is not a JSON object, and a syntax error
    /// when it is not JSON. Read as it lies, without building the whole value: this runs for
    /// every token, and most of a chunk (its id, object type, fingerprint) is not wanted. A
    /// later duplicate member wins, as with `JSONValue`'s subscript.
    init?(json bytes: [UInt8]) throws(JSONParser.SyntaxError) {
        var model: String?, created: Double?, hasChoices = false
        var error: JSONValue?, reportedUsage: JSONValue?, timingsValue: JSONValue?
        var finishReason: String?, content: String?, reasoningContent: String?, reasoning: String?
        var contentRange: Range<Int>?
        var toolCalls: JSONValue?
        let isObject = try JSONParser.read(bytes) { parser throws(JSONParser.SyntaxError) -> Bool in
            guard parser.atObject else { return false }
            try parser.members { parser, key throws(JSONParser.SyntaxError) in
                if key.is("model") {
                    model = try parser.string()
                } else if key.is("created") {
                    created = try parser.number()
                } else if key.is("choices") {
                    hasChoices = false
                    (finishReason, content, contentRange, reasoningContent, reasoning, toolCalls) = (nil, nil, nil, nil, nil, nil)
                    guard parser.atArray else { return }
                    try parser.elements { parser, position throws(JSONParser.SyntaxError) in
                        guard position == 0 else { return }
                        hasChoices = true
                        guard parser.atObject else { return }
                        try parser.members { parser, key throws(JSONParser.SyntaxError) in
                            if key.is("finish_reason") {
                                finishReason = try parser.string()
                            } else if key.is("delta") {
                                (content, contentRange, reasoningContent, reasoning, toolCalls) = (nil, nil, nil, nil, nil)
                                guard parser.atObject else { return }
                                try parser.members { parser, key throws(JSONParser.SyntaxError) in
                                    if key.is("content") {
                                        let start = parser.index
                                        content = try parser.string()
                                        contentRange = content == nil ? nil : start..<parser.index
                                    } else if key.is("reasoning_content") {
                                        reasoningContent = try parser.string()
                                    } else if key.is("reasoning") {
                                        reasoning = try parser.string()
                                    } else if key.is("tool_calls") {
                                        toolCalls = try parser.value()
                                    }
                                }
                            }
                        }
                    }
                } else if key.is("error") {
                    error = try parser.value()
                } else if key.is("usage") {
                    reportedUsage = try parser.value()
                } else if key.is("timings") {
                    timingsValue = try parser.value()
                }
            }
            return true
        }
        guard isObject else { return nil }
        self.model = model
        self.created = created
        self.hasChoices = hasChoices
        self.content = content
        self.contentRange = contentRange
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

extension ChatCompletionChunk {
    /// This chunk with `text`, read from `range` of a text that is this chunk's with another
    /// string in place of its content, as its content.
    func replacingContent(with text: String, readFrom range: Range<Int>) -> ChatCompletionChunk {
        var chunk = self
        chunk.content = text
        chunk.contentRange = range
        return chunk
    }
}
