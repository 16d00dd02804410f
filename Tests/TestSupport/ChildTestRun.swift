import Foundation

/// Runs one test of this test bundle again in a child process, with the same environment or
/// another — for what a process sets once and keeps, such as its D-Bus session bus or the
/// libraries it has loaded. The child sees `AGENT_TEST_CHILD=1`.
public enum ChildTestRun {
    public static var isChild: Bool { ProcessInfo.processInfo.environment["AGENT_TEST_CHILD"] == "1" }

    /// The child run did not pass the one test it was to run; its output.
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the test `filter` names again in a child process whose session bus (a private one)
    /// activates nothing — no keyring, nor the accessibility bus, which GTK then goes without;
    /// throws unless exactly that test ran and passed.
    public static func passOnABusOfItsOwn(_ filter: String) async throws {
        let bus = try PrivateBus(activation: false)
        try await pass(filter, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "GTK_A11Y": "none"])
    }

    /// Runs the test `filter` names again in a fresh process, where nothing another test did
    /// (a library loaded, a global set) has happened; throws unless exactly that test ran and passed.
    public static func pass(_ filter: String, environment: [String: String] = [:]) async throws {
        let run = try await run(filter: filter, environment: environment)
        guard run.status == 0, run.output.contains("Test run with 1 test") else {
            throw Failed(description: "the child run of \(filter) (status \(run.status)):\n\(run.output)")
        }
    }

    /// For a test that must run in a fresh process: in the test run, runs it there (`pass`)
    /// and returns true, the test being done; in that child process, returns false, for the
    /// test to go on. `if try await ChildTestRun.passedInAFreshProcess("Suite/test") { return }`
    public static func passedInAFreshProcess(_ filter: String) async throws -> Bool {
        guard !isChild else { return false }
        try await pass(filter)
        return true
    }

    /// Runs the tests matching `filter` (a Swift Testing filter) with `environment` added;
    /// returns the exit status and the combined output. The child is read and waited for on
    /// a thread of its own: its run takes seconds, and the thread a test awaits on is shared
    /// (the main actor's, or one of the cooperative pool's few).
    public static func run(filter: String, environment: [String: String]) async throws -> (status: Int32, output: String) {
        let child = Process()
        child.executableURL = URL(filePath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        child.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["AGENT_TEST_CHILD": "1"]) { $1 }) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                while child.isRunning { usleep(1000) }  // (waitUntilExit can hang off the main thread)
                continuation.resume(returning: (child.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }
}
