/// An MCP server's tool as the model sees it: its exposed name, the server's description
/// and input schema; running it asks the user first, then calls the server.
struct MCPTool: Tool {
    let exposedName: String
    let mcpServer: MCPServer
    let description: MCPToolDescription
    let approver: any MCPToolApprover

    var definition: ToolDefinition {
        ToolDefinition(name: exposedName, description: description.description.isEmpty ? description.title : description.description,
                       parameters: description.inputSchema)
    }

    var server: String? { mcpServer.config.name }

    func run(_ arguments: JSONValue) async throws -> String {
        try await run(arguments) { _ in }
    }

    func run(_ arguments: JSONValue, progress: @escaping @Sendable (String) -> Void) async throws -> String {
        // Stopped before the call: nothing is asked of the user.
        try Task.checkCancellation()
        let question = MCPToolCallQuestion(name: exposedName, server: mcpServer.config.name, tool: description, arguments: arguments)
        guard await approver.approve(question) else { throw ToolFailure(MCPRefusal.text) }
        try Task.checkCancellation()
        let result: JSONValue
        do {
            result = try await mcpServer.call(description.name, arguments: arguments, progress: progress)
        } catch let error as MCPError {
            throw ToolFailure("\(mcpServer.config.name) could not run \(description.name): \(error)")
        }
        let (text, isError) = MCPToolResult.text(of: result)
        if isError { throw ToolFailure(text) }
        return text
    }
}
