/// The tools the model may call, by name: their definitions for the request, and running
/// a call — arguments validated first, unknown tools and failures turned into results the
/// model can read, so a conversation always goes on.
public struct Toolbox: Sendable {
    public let tools: [any Tool]

    public init(_ tools: [any Tool] = []) {
        self.tools = tools
    }

    public var definitions: [ToolDefinition] { tools.map(\.definition) }
    public var isEmpty: Bool { tools.isEmpty }

    public func tool(named name: String) -> (any Tool)? {
        tools.first { $0.definition.name == name }
    }

    /// What running a call came to.
    public enum Outcome: Sendable, Equatable {
        case result(String)
        case failed(String)
        /// The model asked for a tool this toolbox does not have.
        case unknownTool(String)

        /// The text that goes back to the model.
        public var text: String {
            switch self {
            case .result(let text): text
            case .failed(let message): "Error: \(message)"
            case .unknownTool(let message): "Error: \(message)"
            }
        }

        public var isFailure: Bool {
            if case .result = self { return false }
            return true
        }
    }

    /// Runs `call`; `progress` hears how far a long-running tool has come.
    public func run(_ call: ToolCall, progress: @escaping @Sendable (String) -> Void = { _ in }) async -> Outcome {
        guard let tool = tool(named: call.name) else {
            let available = definitions.map(\.name).joined(separator: ", ")
            return .unknownTool("there is no tool named “\(call.name)”" + (available.isEmpty ? "." : "; the tools are: \(available)."))
        }
        var arguments = call.arguments
        if arguments == .null || arguments == .string("") { arguments = .object([]) }  // "no arguments"
        let problems = JSONSchemaValidator.problems(in: arguments, against: tool.definition.parameters)
        guard problems.isEmpty else {
            return .failed("invalid arguments for \(call.name): " + problems.joined(separator: "; "))
        }
        do {
            return .result(try await tool.run(arguments, progress: progress))
        } catch let failure as ToolFailure {
            return .failed(failure.message)
        } catch is CancellationError {
            return .failed("\(call.name) was cancelled")
        } catch {
            return .failed("\(call.name) failed: \(ChatError.describe(error))")
        }
    }
}
