/// A model's request to run a tool, and what came of it.
public struct ToolCall: Sendable, Equatable, Codable {
    /// The server's id for the call (OpenAI), or one made up (Ollama sends none).
    public var id: String
    public var name: String
    /// The arguments as the model gave them: any JSON (OpenAI's argument string is parsed;
    /// text that is not JSON stays a string and fails validation).
    public var arguments: JSONValue
    /// The text sent back to the model; nil while the tool runs.
    public var result: String?
    /// Whether the result reports a failure (bad arguments, unknown tool, tool error).
    public var failed: Bool
    /// Where in the reply's text the round that asked for this call ended (UTF-8 offset);
    /// it splits the reply into rounds again when the conversation is sent back.
    public var textOffset: Int
    /// Which round of the turn asked for it (0 = the first), so rounds that added no text
    /// stay separate rounds.
    public var round: Int
    /// The MCP server whose tool it is; nil for Agent's own tools.
    public var server: String?
    /// What a running tool last said about its progress.
    public var progress: String?

    public init(id: String, name: String, arguments: JSONValue, result: String? = nil, failed: Bool = false,
                textOffset: Int = 0, round: Int = 0) {
        self.id = id
        self.name = name
        self.arguments = arguments
        self.result = result
        self.failed = failed
        self.textOffset = textOffset
        self.round = round
    }
}

extension ToolCall {
    /// How people see the call named: `server › tool` for an MCP tool.
    public var displayName: String {
        server.map { "\($0) › \(name)" } ?? name
    }
}
