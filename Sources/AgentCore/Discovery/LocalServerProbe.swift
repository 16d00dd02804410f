/// One question to one port of this computer: Ollama's `GET /api/tags` or an
/// OpenAI-compatible `GET /v1/models`. Only an answer of the expected shape counts; an
/// error, garbage or silence past the time-out means nothing is there.
struct LocalServerProbe: Sendable {
    let host: String
    let candidate: LocalServerDiscovery.Candidate
    let connectTimeout: Duration
    let totalTimeout: Duration

    private var baseURL: String { "http://\(host):\(candidate.port)" }

    /// The server found, or nil.
    func run() async -> FoundServer? {
        let path = candidate.protocolKind == .ollama ? "/api/tags" : "/v1/models"
        var request = HTTPRequest(url: baseURL + path, connectTimeout: connectTimeout, totalTimeout: totalTimeout, idleTimeout: nil)
        // A redirect or a proxy would send the question somewhere else.
        request.followsRedirects = false
        request.bypassesProxy = true
        guard let response = try? await HTTPClient.fetch(request, maxBodyBytes: 1 << 20), response.head.isSuccess,
              let json = try? JSONParser.parse([UInt8](response.body)) else { return nil }
        switch candidate.protocolKind {
        case .ollama:
            guard let models = json["models"]?.arrayValue else { return nil }
            return FoundServer(url: baseURL, protocol: .ollama, name: candidate.name,
                               models: models.compactMap { $0["name"]?.stringValue ?? $0["model"]?.stringValue })
        case .openai, .llmtools:
            guard let data = json["data"]?.arrayValue else { return nil }
            let owners = data.compactMap { $0["owned_by"]?.stringValue }
            return FoundServer(url: baseURL, protocol: .openai, name: Self.name(owners: owners) ?? candidate.name,
                               models: data.compactMap { $0["id"]?.stringValue })
        }
    }

    /// What the models' `owned_by` says the server is, when it says.
    static func name(owners: [String]) -> String? {
        let known = ["llamacpp": "llama-server", "vllm": "vLLM", "organization_owner": "LM Studio", "koboldcpp": "KoboldCpp",
                     "ollama": "Ollama", "localai": "LocalAI"]
        return owners.lazy.compactMap { known[$0.lowercased()] }.first
    }
}
