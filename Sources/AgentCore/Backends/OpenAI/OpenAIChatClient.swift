import FoundationEssentials

/// Streams replies from an OpenAI-compatible `chat/completions` endpoint (llama.cpp,
/// vLLM, LM Studio, OpenAI) or the `/llmprompt` harness, over Server-Sent Events,
/// with tool calling.
public struct OpenAIChatClient: ChatBackend {
    public let endpoint: ChatEndpoint
    public let options: GenerationOptions
    /// What runs the requests: the process's transfer engine unless a test gives one of its own.
    var engine = TransferEngine.shared

    public init(endpoint: ChatEndpoint, options: GenerationOptions = GenerationOptions()) {
        self.endpoint = endpoint
        self.options = options
    }

    public func streamRound(_ round: ChatRound, onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws -> [ToolCall] {
        let body = OpenAIRequestBody.make(model: endpoint.model, round: round, options: options)
        let request = try endpoint.streamingRequest(body: body, accept: "text/event-stream")
        return try await ReplyStreamRunner.run(request, decoder: OpenAIStreamDecoder(), engine: engine, onEvent: onEvent)
    }
}

extension ChatEndpoint {
    /// A POST of `body` (JSON) to this endpoint's URL, with its key and CA file.
    func streamingRequest(body: JSONValue, accept: String) throws -> HTTPRequest {
        guard Self.isUsable(serverURL: serverURL) else { throw ChatError.invalidURL(serverURL) }
        return HTTPRequest(url: url, method: "POST",
                           headers: [("Content-Type", "application/json; charset=utf-8"), ("Accept", accept)],
                           body: Data(body.serialized.utf8), bearerToken: apiKey?.value, caFile: caFile,
                           idleTimeout: idleTimeout)
    }
}
