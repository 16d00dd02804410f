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
struct ChatCompletionChunk: Decodable {
    struct Choice: Decodable {
        struct Delta: Decodable {
            let content: String?
        }

        let delta: Delta?
        let finishReason: String?

        enum CodingKeys: String, CodingKey {
            case delta
            case finishReason = "finish_reason"
        }
    }

    let model: String?
    let created: Double?
    let choices: [Choice]?
    let error: ServerErrorBody?
}

/// A server's error report: `{"error": "text"}`, `{"error": {"message": …}}`,
/// `{"message": …}` or `{"detail": …}`, whichever the server speaks.
struct ServerErrorBody: Decodable {
    let message: String

    private enum CodingKeys: String, CodingKey {
        case message, error, detail, type, code
    }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            message = text
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let nested = try? container.decode(ServerErrorBody.self, forKey: .error) {
            message = nested.message
        } else if let text = try? container.decode(String.self, forKey: .message) {
            message = text
        } else if let text = try? container.decode(String.self, forKey: .detail) {
            message = text
        } else if let text = try? container.decode(String.self, forKey: .type) {
            message = text
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no error message"))
        }
    }

    /// The server's own message in an error response body, else the body's text.
    static func message(inBody body: Data) -> String {
        if let decoded = try? JSONDecoder().decode(ServerErrorBody.self, from: body) {
            return decoded.message
        }
        let text = String(decoding: body.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text
    }
}
