/// What the user decided about the on-device tools.
extension SettingsStore {
    /// Whether `get_location` may run without asking: "always" once the user chose Always Allow.
    public var locationAlwaysAllowed: Bool {
        get { string("location", "consent") == "always" }
        set { set(newValue ? "always" : nil, "location", "consent") }
    }

    /// A location to use when the device cannot tell (no GeoClue, or it refused).
    public var manualLocation: Coordinates? {
        get { string("location", "manual").flatMap(Coordinates.init(parsing:)) }
        set { set(newValue?.description, "location", "manual") }
    }

    /// Tools the user switched off.
    public var disabledTools: Set<String> {
        get { Set((string("tools", "disabled") ?? "").split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty }) }
        set { set(newValue.isEmpty ? nil : newValue.sorted().joined(separator: ","), "tools", "disabled") }
    }
}
