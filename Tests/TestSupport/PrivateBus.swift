import Foundation

/// A private D-Bus daemon for one test, so services (a GeoClue mock) never touch the
/// machine's own buses. Ends with the test process (its stdin closes).
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let daemon: Process
    private var mocks: [DBusMock] = []

    /// `activation`: whether the bus starts the machine's services on demand (a session
    /// bus does); without it only the services a test starts are there.
    public init(activation: Bool = true) throws {
        var arguments = ["--session", "--nofork", "--print-address=1"]
        if !activation {
            let config = FileManager.default.temporaryDirectory.appending(path: "agent-bus-\(UUID().uuidString).conf")
            try Self.bareConfiguration.write(to: config, atomically: true, encoding: .utf8)
            arguments[0] = "--config-file=\(config.path)"
        }
        let daemon = TiedProcess.make("/usr/bin/dbus-daemon", arguments)
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        guard let line = output.fileHandleForReading.readLine(), !line.isEmpty else {
            throw CocoaError(.fileReadCorruptFile)
        }
        address = line
        self.daemon = daemon
    }

    /// Starts python-dbusmock with `template` on this bus (as its system and session bus)
    /// and waits until `busName` is owned.
    public func startMock(template: String, busName: String, parameters: [String: Any] = [:]) throws {
        mocks.append(try DBusMock(template: template, busName: busName, objectPath: "/", address: address, parameters: parameters))
    }

    /// A session bus with no service directories: nothing is activated.
    private static let bareConfiguration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """

    deinit {
        mocks.removeAll()
        daemon.terminate()
    }

    /// A template shipped with the tests (Tests/Servers/).
    public static func template(_ name: String) -> String {
        TiedProcess.serversDirectory.appending(path: name).path
    }
}
