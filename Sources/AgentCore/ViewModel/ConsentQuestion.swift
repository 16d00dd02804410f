/// The user's answer when a tool asks for consent.
public enum Consent: Sendable, Equatable {
    case allowOnce
    case allowAlways
    case deny
}

/// What the window asks the user before something runs on their behalf.
public enum ConsentQuestion: Sendable, Equatable {
    /// `get_location` would send the device's location to the model.
    case location
    /// The model wants to call an MCP tool.
    case toolCall(MCPToolCallQuestion)
    /// An MCP server from pasted or edited configuration would start a program.
    case serverLaunch(MCPServerConfig)

    var isLaunch: Bool {
        if case .serverLaunch = self { return true }
        return false
    }
}

/// An MCP tool call waiting for the user's word: who would run what, with which arguments.
public struct MCPToolCallQuestion: Sendable, Equatable {
    /// The name the model called it by.
    public let name: String
    public let server: String
    public let tool: MCPToolDescription
    public let arguments: JSONValue

    public init(name: String, server: String, tool: MCPToolDescription, arguments: JSONValue) {
        self.name = name
        self.server = server
        self.tool = tool
        self.arguments = arguments
    }
}
