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
}
