import AgentCore
import Synchronization

/// Approves MCP tool calls for `agent-cli`: those named by `--allow-tools`, else the
/// person at the terminal decides ("always" holds for this run). With no terminal the call
/// is refused, and stderr says how to allow it.
final class TerminalToolApprover: MCPToolApprover {
    private let allowance: ToolAllowance?
    private let allowedThisRun = Mutex<Set<MCPToolKey>>([])

    init(allowance: ToolAllowance?) {
        self.allowance = allowance
    }

    func approve(_ question: MCPToolCallQuestion) async -> Bool {
        if allowance?.allows(question) == true { return true }
        let key = MCPToolKey(server: question.server, tool: question.tool.name)
        if allowedThisRun.withLock({ $0.contains(key) }) { return true }
        let hints = question.tool.hints.isEmpty ? "" : " (the server \(question.tool.hints.joined(separator: ", ")))"
        let answer = await TerminalConsent.ask(
            "The model wants to run \(question.name) from the MCP server “\(question.server)”\(hints) with \(question.arguments.serialized). Run it?",
            refusal: "the model called the tool \(question.name) (server “\(question.server)”); no terminal to ask, so it was "
                + "refused. Allow it with --allow-tools \(question.name) (or --allow-tools all)")
        if answer == .allowAlways { allowedThisRun.withLock { _ = $0.insert(key) } }
        return answer != .deny
    }
}
