import Foundation

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
struct ChatCompletionRequest: Encodable {
    struct Message: Encodable {
        let role: String
        let content: String
    }

    let model: String
    let messages: [Message]
    let stream = true
    let temperature: Double?
    let seed: Int?
    let maxTokens: Int?

    enum CodingKeys: String, CodingKey {
        case model, messages, stream, temperature, seed
        case maxTokens = "max_tokens"
    }

    init(model: String, conversation: [ChatMessage], options: GenerationOptions) {
        self.model = model
        messages = conversation.map { Message(role: $0.role.rawValue, content: $0.text) }
        temperature = options.temperature
        seed = options.seed
        maxTokens = options.maxTokens
    }
}

/// One `data:` payload of a streamed chat completion. Every field is optional: servers
/// send `content: null`, empty `choices` (usage chunks) and bare `error` objects.
struct ChatCompletionChunk {
    let model: String?
    let created: Double?
    let hasChoices: Bool
    /// `choices[0].delta.content`.
    let content: String?
    /// `choices[0].finish_reason`.
    let finishReason: String?
    /// The server's message when the chunk is an `{"error": …}` report.
    let errorMessage: String?

    /// Reads a chunk; nil when the payload is not a JSON object.
    init?(_ json: JSONValue) {
        guard case .object = json else { return nil }
        model = json["model"]?.stringValue
        created = json["created"]?.numberValue
        let first = json["choices"]?[0]
        hasChoices = first != nil
        content = first?["delta"]?["content"]?.stringValue
        finishReason = first?["finish_reason"]?.stringValue
        errorMessage = json["error"].flatMap { $0.isNull ? nil : ServerErrorBody.message(in: $0) }
    }
}

/// A server's error report: `{"error": "text"}`, `{"error": {"message": …}}`,
/// `{"message": …}` or `{"detail": …}`, whichever the server speaks.
enum ServerErrorBody {
    static func message(in json: JSONValue) -> String? {
        if let text = json.stringValue { return text }
        if let nested = json["error"], let message = message(in: nested) { return message }
        for key in ["message", "detail", "type"] {
            if let text = json[key]?.stringValue { return text }
        }
        if let code = json["code"]?.numberValue { return "error \(Int(code))" }
        return nil
    }

    /// The server's own message in an error response body, else the body's text.
    static func message(inBody body: Data) -> String {
        let bytes = [UInt8](body)
        if let json = try? JSONParser.parse(bytes), let message = message(in: json) {
            return message
        }
        return String(decoding: body.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
