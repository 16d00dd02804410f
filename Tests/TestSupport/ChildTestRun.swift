import Foundation

/// Runs one test of this test bundle again in a child process with a different
/// environment — for what a process sets once and keeps, such as its D-Bus session bus.
/// The child sees `AGENT_TEST_CHILD=1`.
public enum ChildTestRun {
    public static var isChild: Bool { ProcessInfo.processInfo.environment["AGENT_TEST_CHILD"] == "1" }

    /// Runs the tests matching `filter` (a Swift Testing filter) with `environment` added;
    /// returns the exit status and the combined output.
    public static func run(filter: String, environment: [String: String]) throws -> (status: Int32, output: String) {
        let child = Process()
        child.executableURL = URL(filePath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        child.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["AGENT_TEST_CHILD": "1"]) { $1 }) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        while child.isRunning { usleep(1000) }  // (waitUntilExit can hang off the main thread)
        return (child.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
