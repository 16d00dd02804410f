/// The app's way to approve MCP tool calls and server launches: what the user chose to
/// allow always is kept in settings; anything else is asked through the consent broker,
/// which the window shows as a dialog.
public struct AskingToolApprover: MCPToolApprover {
    private let settings: SettingsStore
    private let consent: ConsentBroker

    public init(settings: SettingsStore, consent: ConsentBroker) {
        self.settings = settings
        self.consent = consent
    }

    public func approve(_ question: MCPToolCallQuestion) async -> Bool {
        let key = MCPToolKey(server: question.server, tool: question.tool.name)
        let settings = settings
        if await MainActor.run(body: { settings.alwaysAllowedMCPTools.contains(key) }) { return true }
        switch await consent.ask(.toolCall(question)) {
        case .deny:
            return false
        case .allowOnce:
            return true
        case .allowAlways:
            await MainActor.run { _ = settings.alwaysAllowedMCPTools.insert(key) }
            return true
        }
    }

    /// Whether `config`'s command may run: allowed before (exactly this command), or the
    /// user allows it now. HTTP servers run nothing on this computer and are not asked about.
    public func approveLaunch(_ config: MCPServerConfig) async -> Bool {
        guard config.isStdio else { return true }
        let settings = settings
        let fingerprint = config.launchFingerprint
        if await MainActor.run(body: { settings.approvedMCPLaunches.contains(fingerprint) }) { return true }
        guard await consent.ask(.serverLaunch(config)) != .deny else { return false }
        await MainActor.run { _ = settings.approvedMCPLaunches.insert(fingerprint) }
        return true
    }
}
