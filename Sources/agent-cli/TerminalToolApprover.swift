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
        // TRANSLATORS: after an MCP server's name: what the server says of the tool, "(the server says it only reads)".
        let hints = question.tool.hints.isEmpty ? "" : " " + tr("(the server %s)", question.tool.hints.joined(separator: ", "))
        // TRANSLATORS: %1$s is a tool's name, %2$s an MCP server's name, %3$s what the server says of the tool
        // (may be empty), %4$s the call's arguments in JSON.
        let ask = tr("The model wants to run %1$s from the MCP server “%2$s”%3$s with %4$s. Run it?",
                     question.name, question.server, hints, question.arguments.serialized)
        // TRANSLATORS: %1$s is a tool's name, %2$s an MCP server's name, %3$s the tool's name again.
        let refusal = tr("the model called the tool %1$s (server “%2$s”); no terminal to ask, so it was refused. Allow it with --allow-tools %3$s (or --allow-tools all)",
                         question.name, question.server, question.name)
        let answer = await TerminalConsent.ask(ask, refusal: refusal)
        if answer == .allowAlways { allowedThisRun.withLock { _ = $0.insert(key) } }
        return answer != .deny
    }
}
