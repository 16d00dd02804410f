import FoundationEssentials

/// Streams replies from Ollama's `/api/chat` (newline-delimited JSON), with tool calling,
/// and lists its models (`/api/tags`).
public struct OllamaChatClient: ChatBackend {
    public let endpoint: ChatEndpoint
    public let options: GenerationOptions

    public init(endpoint: ChatEndpoint, options: GenerationOptions = GenerationOptions()) {
        self.endpoint = endpoint
        self.options = options
    }

    public func streamRound(_ round: ChatRound, onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws -> [ToolCall] {
        let body = OllamaRequestBody.make(model: endpoint.model, round: round, options: options)
        let request = try endpoint.streamingRequest(body: body, accept: "application/x-ndjson")
        return try await ReplyStreamRunner.run(request, decoder: OllamaStreamDecoder(), onEvent: onEvent)
    }

    /// The names of the models the server has (`GET /api/tags`).
    public func models() async throws -> [String] {
        let url = endpoint.url(forPath: "/api/tags")
        let response = try await HTTPClient.fetch(HTTPRequest(url: url, bearerToken: endpoint.apiKey?.value, caFile: endpoint.caFile))
        guard response.head.isSuccess else {
            throw ChatError.http(response.head, url: url, body: response.body)
        }
        let json = try JSONParser.parse([UInt8](response.body))
        let models = json["models"]?.arrayValue ?? []
        return models.compactMap { model -> String? in model["name"]?.stringValue ?? model["model"]?.stringValue }
    }
}
