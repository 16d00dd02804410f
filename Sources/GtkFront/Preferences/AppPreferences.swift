import AgentCore

/// What the Preferences window edits, and how the app turns the settings into the
/// connection chats use.
@MainActor
public struct AppPreferences {
    public let settings: SettingsStore
    public let secrets: SecretStore
    /// The MCP servers (nil: tools are off for this run).
    public let mcp: MCPServersModel?
    /// The connection the current settings describe.
    public let makeConnection: @MainActor () -> ChatConnection
    /// The server named with `agent --server` for this run, if one was.
    public let serverOfThisRun: ServerOfThisRun?

    public init(settings: SettingsStore, secrets: SecretStore, mcp: MCPServersModel? = nil,
                serverOfThisRun: ServerOfThisRun? = nil, makeConnection: @escaping @MainActor () -> ChatConnection) {
        self.settings = settings
        self.secrets = secrets
        self.mcp = mcp
        self.serverOfThisRun = serverOfThisRun
        self.makeConnection = makeConnection
    }
}
