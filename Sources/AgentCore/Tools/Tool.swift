/// What the model is told about a tool: its name, what it does, and its parameters as a
/// JSON Schema. The same shape serves OpenAI, Ollama and the llmtools harness.
public struct ToolDefinition: Sendable, Equatable {
    public let name: String
    public let description: String
    /// A JSON Schema for the arguments object.
    public let parameters: JSONValue

    public init(name: String, description: String, parameters: JSONValue = .object([("type", .string("object")), ("properties", .object([]))])) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }

    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    public var wireJSON: JSONValue {
        .object([
            ("type", .string("function")),
            ("function", .object([
                ("name", .string(name)),
                ("description", .string(description)),
                ("parameters", parameters),
            ])),
        ])
    }
}

/// A tool the model may call: one of Agent's own, or one an MCP server offers.
public protocol Tool: Sendable {
    var definition: ToolDefinition { get }
    /// The MCP server it belongs to; nil for Agent's own tools.
    var server: String? { get }
    /// Runs the tool with arguments already validated against `definition.parameters`.
    /// The returned text goes back to the model; throw `ToolFailure` for a failure the
    /// model should read.
    func run(_ arguments: JSONValue) async throws -> String
    /// As `run(_:)`, telling `progress` how far the tool has come (a server's progress notes).
    func run(_ arguments: JSONValue, progress: @escaping @Sendable (String) -> Void) async throws -> String
}

extension Tool {
    public var server: String? { nil }

    public func run(_ arguments: JSONValue, progress: @escaping @Sendable (String) -> Void) async throws -> String {
        try await run(arguments)
    }
}

/// A failure a tool reports to the model (and the user sees in the tool line).
public struct ToolFailure: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
