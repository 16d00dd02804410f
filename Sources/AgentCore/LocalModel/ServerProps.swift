import FoundationEssentials

/// What a running llama-server says about itself at `GET /props`: the context it really
/// has, the chat template it applies and the file it runs.
public struct ServerProps: Sendable, Equatable {
    /// `default_generation_settings.n_ctx`: the context, in tokens.
    public let contextSize: Int
    /// `chat_template`: the Jinja template prompts are made with ("" when none).
    public let chatTemplate: String
    /// `model_path`: the model file it loaded.
    public let modelPath: String

    public init(contextSize: Int, chatTemplate: String, modelPath: String) {
        self.contextSize = contextSize
        self.chatTemplate = chatTemplate
        self.modelPath = modelPath
    }

    /// Reads `/props` of the server at `serverURL`.
    public static func fetch(from serverURL: String) async throws -> ServerProps {
        let request = HTTPRequest(url: serverURL + "/props", connectTimeout: .seconds(2), totalTimeout: .seconds(5))
        let response = try await HTTPClient.fetch(request)
        guard response.head.status == 200 else {
            // TRANSLATORS: %s is an HTTP status code.
            throw ChatError.localModel(tr("The local model server's /props answered HTTP %s.", String(response.head.status)))
        }
        let body = try? JSONParser.parse(Array(response.body))
        guard let body, let props = ServerProps(json: body) else {
            throw ChatError.localModel(tr("The local model server's /props did not say its context size."))
        }
        return props
    }

    init?(json: JSONValue) {
        guard let size = json["default_generation_settings"]?["n_ctx"]?.intValue ?? json["n_ctx"]?.intValue, size > 0 else { return nil }
        contextSize = size
        chatTemplate = json["chat_template"]?.stringValue ?? ""
        modelPath = json["model_path"]?.stringValue ?? ""
    }

    /// How many tokens of conversation (estimated) a request may carry: the context less
    /// the longest reply and a margin. The margin, an eighth of the context, covers what the
    /// estimate does not see — the template's tokens around each message, tool definitions,
    /// and text that takes more tokens than four bytes each.
    public func contextBudget(longestReply: Int) -> Int {
        max(256, contextSize - longestReply - max(128, contextSize / 8))
    }
}
