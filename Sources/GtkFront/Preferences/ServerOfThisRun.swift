import AgentCore

/// A server named with `agent --server`: Preferences › Servers offers it beside the
/// settings' destinations for as long as the app runs.
@MainActor
public struct ServerOfThisRun {
    /// How Chats Go To names it (its host).
    public let name: String
    /// Its connection, made anew: the command line's options, the tools the settings leave on.
    public let makeConnection: @MainActor () -> ChatConnection

    public init(name: String, makeConnection: @escaping @MainActor () -> ChatConnection) {
        self.name = name
        self.makeConnection = makeConnection
    }
}
