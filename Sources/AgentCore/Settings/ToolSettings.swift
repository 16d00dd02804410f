/// What the user decided about the on-device tools.
extension SettingsStore {
    /// Whether `get_location` may run without asking (the user chose Always Allow).
    public var locationAlwaysAllowed: Bool {
        get { root.bool("location-always-allowed") }
        set { root.set("location-always-allowed", newValue) }
    }

    /// A location to use when the device cannot tell (no GeoClue, or it refused).
    public var manualLocation: Coordinates? {
        get { Coordinates(parsing: root.string("manual-location")) }
        set { root.set("manual-location", newValue?.description ?? "") }
    }

    /// Tools the user switched off.
    public var disabledTools: Set<String> {
        get { Set(root.strings("disabled-tools")) }
        set { root.set("disabled-tools", newValue.sorted()) }
    }

    /// MCP tools the user switched off, per server.
    public var disabledMCPTools: Set<MCPToolKey> {
        get { Set(root.strings("mcp-disabled-tools").compactMap(MCPToolKey.init(stored:))) }
        set { root.set("mcp-disabled-tools", newValue.map(\.stored).sorted()) }
    }

    /// MCP tools the user chose "Always Allow" for.
    public var alwaysAllowedMCPTools: Set<MCPToolKey> {
        get { Set(root.strings("mcp-always-allowed").compactMap(MCPToolKey.init(stored:))) }
        set { root.set("mcp-always-allowed", newValue.map(\.stored).sorted()) }
    }

    /// The launches of stdio MCP servers the user allowed (`MCPServerConfig.launchFingerprint`):
    /// a command changed since then is asked about again.
    public var approvedMCPLaunches: Set<String> {
        get { Set(root.strings("mcp-approved-launches")) }
        set { root.set("mcp-approved-launches", newValue.sorted()) }
    }
}
