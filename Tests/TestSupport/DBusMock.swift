import Foundation

/// A python-dbusmock service from a template, on a given bus, for as long as this object
/// lives. Its `org.freedesktop.DBus.Mock` interface records calls and takes commands.
public final class DBusMock: @unchecked Sendable {
    public let address: String
    public let busName: String
    public let objectPath: String
    private let process: Process

    /// Starts `template` (a dbusmock template name, or a path under Tests/Servers/) and
    /// waits until `busName` is owned on the bus at `address`.
    public init(template: String, busName: String, objectPath: String, address: String,
                parameters: [String: Any] = [:]) throws {
        var arguments = ["-m", "dbusmock", "--template", template]
        if !parameters.isEmpty {
            let json = try JSONSerialization.data(withJSONObject: parameters)
            arguments += ["--parameters", String(decoding: json, as: UTF8.self)]
        }
        let mock = TiedProcess.make("/usr/bin/python3", arguments)
        mock.environment = ProcessInfo.processInfo.environment.merging(
            ["DBUS_SYSTEM_BUS_ADDRESS": address, "DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        process = mock
        self.address = address
        self.busName = busName
        self.objectPath = objectPath
        guard try Self.gdbus(["wait", "--address", address, "--timeout", "10", busName]).status == 0 else {
            mock.terminate()
            throw CocoaError(.executableLoad)
        }
    }

    /// The session bus of this process (the private one test-session runs the tests in).
    public static var sessionAddress: String? { ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] }

    /// Calls a method of the mock interface, e.g. `SetColorScheme 1` or `GetCalls`; returns gdbus's output.
    @discardableResult
    public func mockCall(_ method: String, _ arguments: [String] = []) throws -> String {
        let result = try Self.gdbus(["call", "--address", address, "--dest", busName, "--object-path", objectPath,
                                     "--method", "org.freedesktop.DBus.Mock.\(method)"] + arguments)
        return result.output
    }

    deinit {
        process.terminate()
    }

    private static func gdbus(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let gdbus = Process()
        gdbus.executableURL = URL(filePath: "/usr/bin/gdbus")
        gdbus.arguments = arguments
        let output = Pipe()
        gdbus.standardOutput = output
        try gdbus.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        // (Process.waitUntilExit can hang off the main thread; the output has ended, so does gdbus.)
        while gdbus.isRunning { usleep(1000) }
        return (gdbus.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
