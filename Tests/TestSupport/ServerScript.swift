import Foundation

/// A test server script (Tests/Servers/) run for this test process: it says where it listens
/// on the first line of its stdout and exits when its stdin closes — when `stop()` closes it,
/// or when the test process ends, killed or not.
public final class ServerScript: Sendable {
    /// The first line the script wrote ("PORT 41234", "READY 41234"), split at spaces.
    public let fields: [String]
    private let process: Process
    private let lifeline: Pipe

    /// Where a server of plain HTTP and HTTPS listens, from its first line
    /// "PORT <n> TLSPORT <m> CAFILE <path>".
    public struct Listening: Sendable {
        public let port: Int
        public let tlsPort: Int
        public let caFile: String
    }

    /// The first line read as `Listening`; an error when it is not that.
    public func listening() throws -> Listening {
        guard fields.count == 6, let port = Int(fields[1]), let tlsPort = Int(fields[3]) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return Listening(port: port, tlsPort: tlsPort, caFile: fields[5])
    }

    /// Runs `script` from Tests/Servers/ with `python` (python3 on the PATH when nil); its
    /// stderr goes to the test's own when `showErrors`, else nowhere.
    public init(_ script: String, _ arguments: [String] = [], python: URL? = nil, showErrors: Bool = false) throws {
        let path = TiedProcess.serversDirectory.appending(path: script).path
        let process = Process()
        if let python {
            process.executableURL = python
            process.arguments = [path] + arguments
        } else {
            process.executableURL = URL(filePath: "/usr/bin/env")
            process.arguments = ["python3", path] + arguments
        }
        let output = Pipe()
        process.standardOutput = output
        if !showErrors { process.standardError = FileHandle.nullDevice }
        let lifeline = Pipe()
        process.standardInput = lifeline
        try process.run()
        fields = (output.fileHandleForReading.readLine() ?? "").split(separator: " ").map(String.init)
        self.process = process
        self.lifeline = lifeline
    }

    /// Ends the script and waits for it: its stdin closed, and if it has not gone within ten
    /// seconds (stuck before it watches its stdin), SIGTERM.
    public func stop() {
        try? lifeline.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
