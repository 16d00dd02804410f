/// A position on Earth in degrees.
public struct Coordinates: Sendable, Equatable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    /// Accuracy in metres, when known.
    public var accuracy: Double?

    public init(latitude: Double, longitude: Double, accuracy: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }

    /// Reads "LAT,LON" (as `--location` and the settings write it); nil unless both are in range.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { $0.trimmedSpaces }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    public var description: String { "\(latitude),\(longitude)" }
}

/// Where the device is, asked of the system.
public protocol LocationSource: Sendable {
    func currentLocation() async throws -> Coordinates
}

