/// The body of Ollama's `POST /api/chat`.
enum OllamaRequestBody {
    static func make(model: String, round: ChatRound, options: GenerationOptions) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("model", .string(model)),
            ("messages", .array(WireMessage.expand(round.messages).map(encode))),
            ("stream", .bool(true)),
        ]
        if !round.tools.isEmpty { members.append(("tools", .array(round.tools.map(\.wireJSON)))) }
        var sampling: [(key: String, value: JSONValue)] = []
        if let temperature = options.temperature { sampling.append(("temperature", .number(temperature))) }
        if let seed = options.seed { sampling.append(("seed", .number(Double(seed)))) }
        if let maxTokens = options.maxTokens { sampling.append(("num_predict", .number(Double(maxTokens)))) }
        if !sampling.isEmpty { members.append(("options", .object(sampling))) }
        return .object(members)
    }

    static func encode(_ message: WireMessage) -> JSONValue {
        switch message {
        case .plain(let role, let content, let images):
            var members: [(key: String, value: JSONValue)] = [("role", .string(role.rawValue)), ("content", .string(content))]
            if !images.isEmpty { members.append(("images", .array(images.map { .string($0.data.base64EncodedString()) }))) }
            return .object(members)
        case .assistantCalls(let content, let calls):
            return .object([
                ("role", .string("assistant")),
                ("content", .string(content)),
                ("tool_calls", .array(calls.map { call in
                    // Ollama wants an arguments object; arguments that were not one were refused anyway.
                    let arguments: JSONValue = if case .object = call.arguments { call.arguments } else { .object([]) }
                    return .object([("function", .object([("name", .string(call.name)), ("arguments", arguments)]))])
                })),
            ])
        case .toolResult(let call):
            return toolResult(call)
        }
    }

    /// `{"role": "tool", "content": result, "tool_name": name}`.
    static func toolResult(_ call: ToolCall) -> JSONValue {
        .object([("role", .string("tool")), ("content", .string(call.result ?? "")), ("tool_name", .string(call.name))])
    }
}

/// One object of Ollama's chat stream (also what the llmtools harness forwards in its SSE).
struct OllamaChunk {
    let model: String?
    let content: String?
    /// `message.thinking`: what a thinking model thought (sent when the request asks `think`,
    /// or by default for models that think).
    let thinking: String?
    /// `message.tool_calls`: names with arguments as JSON objects.
    let toolCalls: [(name: String, arguments: JSONValue, id: String?)]
    let done: Bool
    let doneReason: String?
    let usage: TokenUsage?
    let errorMessage: String?

    init?(_ json: JSONValue) {
        guard case .object = json else { return nil }
        model = json["model"]?.stringValue
        let message = json["message"]
        content = message?["content"]?.stringValue
        thinking = message?["thinking"]?.stringValue
        toolCalls = (message?["tool_calls"]?.arrayValue ?? []).compactMap { call in
            guard let name = call["function"]?["name"]?.stringValue else { return nil }
            var arguments = call["function"]?["arguments"] ?? .object([])
            if case .string(let text) = arguments { arguments = ToolCall.arguments(fromText: text) }
            return (name, arguments, call["id"]?.stringValue)
        }
        done = json["done"]?.boolValue ?? false
        doneReason = json["done_reason"]?.stringValue
        errorMessage = json["error"].flatMap { $0.isNull ? nil : ServerErrorBody.message(in: $0) }
        if done, json["eval_count"] != nil || json["prompt_eval_count"] != nil {
            usage = TokenUsage(promptTokens: json["prompt_eval_count"]?.intValue,
                               completionTokens: json["eval_count"]?.intValue,
                               generationSeconds: json["eval_duration"]?.numberValue.map { $0 / 1e9 })
        } else {
            usage = nil
        }
    }
}

/// The part Ollama's decoder and the harness's share: reading Ollama chunks into events
/// (thinking included), tool calls and errors.
struct OllamaChunkReader {
    private(set) var toolCalls: [ToolCall] = []
    /// What the server reported as errors (the decoders add the stream-limit error here).
    var serverErrors: [String] = []
    private(set) var sawDone = false
    private(set) var sawContent = false
    private var startedReported = false
    private var thinkSplitter = ThinkTagSplitter()

    mutating func read(_ chunk: OllamaChunk, into batch: inout ReplyEventBatch) {
        if let message = chunk.errorMessage {
            serverErrors.append(message)
            batch.append(.serverError(message))
            return
        }
        if !startedReported {
            startedReported = true
            batch.append(.started(model: chunk.model, created: nil))
        }
        if batch.chunkText(reasoning: chunk.thinking, content: chunk.content, through: &thinkSplitter) { sawContent = true }
        for call in chunk.toolCalls {
            toolCalls.append(ToolCall(id: call.id ?? "call_\(toolCalls.count)", name: call.name, arguments: call.arguments))
        }
        if chunk.done {
            sawDone = true
            batch.endContent(of: &thinkSplitter)
            if let usage = chunk.usage { batch.append(.usage(usage)) }
            batch.append(.finished(reason: chunk.doneReason))
        }
    }

    /// The stream ended: what the content still held back.
    mutating func finish(into batch: inout ReplyEventBatch) {
        batch.endContent(of: &thinkSplitter)
    }

    mutating func reportError(_ message: String, into batch: inout ReplyEventBatch) {
        serverErrors.append(message)
        batch.append(.serverError(message))
    }
}
