/// Where the user chose, in Preferences › Servers, that chats go.
enum DestinationChoice {
    /// The server named with `--server` for this run.
    case serverOfThisRun
    /// Where the settings say (this computer or a server profile).
    case settings
}
