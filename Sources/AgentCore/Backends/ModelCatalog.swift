/// The models a server offers, for Preferences to pick from: `GET /v1/models` from an
/// OpenAI-compatible server, `GET /api/tags` from Ollama. The llmtools harness lists none.
public enum ModelCatalog {
    /// The server's model ids; a server that cannot be reached is a `ChatError.transport` naming it.
    public static func models(for endpoint: ChatEndpoint) async throws -> [String] {
        do {
            return try await listing(for: endpoint)
        } catch let error as TransportError {
            throw ChatError(error, url: endpoint.serverURL) ?? error
        }
    }

    private static func listing(for endpoint: ChatEndpoint) async throws -> [String] {
        switch endpoint.protocolKind {
        case .ollama:
            return try await OllamaChatClient(endpoint: endpoint).models()
        case .llmtools:
            return []
        case .openai:
            let url = endpoint.url(forPath: "/v1/models")
            let response = try await HTTPClient.fetch(HTTPRequest(url: url, bearerToken: endpoint.apiKey?.value, caFile: endpoint.caFile))
            guard response.head.isSuccess else {
                throw ChatError.http(response.head, url: url, body: response.body)
            }
            let json = try JSONParser.parse([UInt8](response.body))
            return (json["data"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        }
    }
}
