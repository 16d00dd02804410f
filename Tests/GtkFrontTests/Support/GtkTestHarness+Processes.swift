import Foundation
import TestSupport

extension GtkTestHarness {
    /// Runs `executable` to its end while GLib's main context runs (the app under test answers
    /// it over D-Bus, and the child's exit reaches Foundation through the main queue).
    @MainActor
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> ProductRunner.Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        async let out = ProductRunner.readToEnd(output.fileHandleForReading)
        async let err = ProductRunner.readToEnd(errors.fileHandleForReading)
        do {
            try await pump(until: { !process.isRunning }, "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) to end")
        } catch {
            // Killed, so its pipes close and the readers above end: the test fails, not hangs.
            kill(process.processIdentifier, SIGKILL)
            _ = await (out, err)
            throw error
        }
        let (stdout, stderr) = await (out, err)
        return ProductRunner.Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                    stderr: String(decoding: stderr, as: UTF8.self))
    }
}
