/// Decides whether one MCP tool call may run: the window asks (Deny · Allow Once · Always
/// Allow), `agent-cli` asks on the terminal or follows `--allow-tools`. A server's
/// annotations (`readOnlyHint`) are shown but never skip the question.
public protocol MCPToolApprover: Sendable {
    func approve(_ question: MCPToolCallQuestion) async -> Bool
}

/// What the model reads when the user said no.
public enum MCPRefusal {
    public static let text = "the user did not approve this call"
}
