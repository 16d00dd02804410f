import AgentCore

/// What the Preferences window edits, and how the app turns the settings into the
/// connection chats use.
@MainActor
public struct AppPreferences {
    public let settings: SettingsStore
    public let secrets: SecretStore
    /// The connection the current settings describe.
    public let makeConnection: @MainActor () -> ChatConnection

    public init(settings: SettingsStore, secrets: SecretStore, makeConnection: @escaping @MainActor () -> ChatConnection) {
        self.settings = settings
        self.secrets = secrets
        self.makeConnection = makeConnection
    }
}
