/// One model an Ollama server has, as `GET /api/tags` lists it.
public struct OllamaModelInfo: Sendable, Equatable {
    /// The name to chat with, pull or delete it by (`qwen3:4b`).
    public var name: String
    /// Bytes on the server's disk.
    public var size: Int
    /// The model family (`qwen3`, `llama`), when Ollama knows it.
    public var family: String?
    /// `4.0B`, `751.63M`.
    public var parameterSize: String?
    /// `Q4_K_M`.
    public var quantization: String?

    public init(name: String, size: Int, family: String? = nil, parameterSize: String? = nil, quantization: String? = nil) {
        self.name = name
        self.size = size
        self.family = family
        self.parameterSize = parameterSize
        self.quantization = quantization
    }

    /// One entry of `/api/tags`' `models`; nil without a name.
    init?(_ json: JSONValue) {
        guard let name = json["name"]?.stringValue ?? json["model"]?.stringValue, !name.isEmpty else { return nil }
        let details = json["details"]
        self.init(name: name, size: json["size"]?.intValue ?? 0,
                  family: details?["family"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
                  parameterSize: details?["parameter_size"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
                  quantization: details?["quantization_level"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// "2.5 GB · qwen3 · 4.0B · Q4_K_M": what a list shows under the name.
    public var summary: String {
        ([ByteCountText.describe(size)] + [family, parameterSize, quantization].compactMap { $0 }).joined(separator: " · ")
    }
}
