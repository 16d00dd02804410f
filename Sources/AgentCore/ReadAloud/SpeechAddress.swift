/// Where speech-dispatcher is reached.
public struct SpeechAddress: Sendable, Equatable {
    /// Its socket; nil for the desktop's (`$SPEECHD_ADDRESS`, else the user's runtime folder).
    public var socketPath: String?
    /// Whether libspeechd may start the service when it is not running, as desktop apps do.
    public var autospawn: Bool

    public init(socketPath: String?, autospawn: Bool) {
        self.socketPath = socketPath
        self.autospawn = autospawn
    }

    /// The desktop's speech service, started when needed.
    public static let desktop = SpeechAddress(socketPath: nil, autospawn: true)
}
