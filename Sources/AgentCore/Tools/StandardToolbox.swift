/// The tools Agent offers: `get_location` and `get_datetime`, minus those the user
/// switched off in settings.
extension Toolbox {
    public static func standard(settings: SettingsStore, locationSource: (any LocationSource)?,
                                fixedLocation: Coordinates? = nil,
                                askConsent: @escaping @Sendable () async -> Consent) -> Toolbox {
        let all: [any Tool] = [
            LocationTool(settings: settings, source: locationSource, fixedLocation: fixedLocation, askConsent: askConsent),
            DateTimeTool(),
        ]
        let disabled = settings.disabledTools
        return Toolbox(all.filter { !disabled.contains($0.definition.name) })
    }
}
