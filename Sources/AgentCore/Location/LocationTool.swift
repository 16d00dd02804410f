/// `get_location`: the device's latitude and longitude. Asks the
/// user first (allow once / always / deny; "always" is remembered), asks GeoClue, and
/// falls back to the manual location in settings when GeoClue cannot answer.
public struct LocationTool: Tool {
    private let settings: SettingsStore
    private let source: (any LocationSource)?
    private let fixedLocation: Coordinates?
    private let askConsent: @Sendable () async -> Consent

    /// `fixedLocation` (the CLI's `--location`) is the user's own answer: no consent asked.
    public init(settings: SettingsStore, source: (any LocationSource)?, fixedLocation: Coordinates? = nil,
                askConsent: @escaping @Sendable () async -> Consent) {
        self.settings = settings
        self.source = source
        self.fixedLocation = fixedLocation
        self.askConsent = askConsent
    }

    public static let name = "get_location"

    public var definition: ToolDefinition {
        ToolDefinition(name: Self.name, description: "Get the current location of the user (latitude and longitude)")
    }

    public static func resultText(_ location: Coordinates) -> String {
        "latitude: \(location.latitude), longitude: \(location.longitude)"
    }

    /// Settings are read and written on the main actor, where the window reads and writes
    /// them: GLib's key-file settings backend takes no lock.
    public func run(_ arguments: JSONValue) async throws -> String {
        if let fixedLocation { return Self.resultText(fixedLocation) }
        // Stopped: neither the user nor GeoClue is asked.
        try Task.checkCancellation()
        let settings = settings
        if await !MainActor.run(body: { settings.locationAlwaysAllowed }) {
            switch await askConsent() {
            case .deny: throw ToolFailure("the user declined to share their location")
            case .allowAlways: await MainActor.run { settings.locationAlwaysAllowed = true }
            case .allowOnce: break
            }
            try Task.checkCancellation()
        }
        var reason = "no location service is available"
        if let source {
            do {
                return Self.resultText(try await source.currentLocation())
            } catch {
                reason = ChatError.describe(error)
            }
        }
        if let manual = await MainActor.run(body: { settings.manualLocation }) { return Self.resultText(manual) }
        throw ToolFailure("the location is unavailable (\(reason)) and no manual location is set")
    }
}
