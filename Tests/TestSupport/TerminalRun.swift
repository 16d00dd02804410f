import Foundation
import Synchronization

/// A product of this package run at a terminal of its own, as a person runs it: `script`
/// (util-linux) gives it a pseudo-terminal as its controlling terminal, so it can open
/// /dev/tty, and the terminal's line discipline turns a typed Ctrl+C into SIGINT for it.
/// What the terminal shows (stdout, stderr and /dev/tty alike) is collected as it comes.
public final class TerminalRun: Sendable {
    private let process: Process
    private let keyboard: FileHandle
    private let screen = Mutex<[UInt8]>([])

    public init(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let command = ([try ProductRunner.executable(name).path] + arguments).map(Self.quoted).joined(separator: " ")
        process = Process()
        process.executableURL = URL(filePath: "/usr/bin/script")
        // Quiet, the command's exit status as its own, no typescript kept.
        process.arguments = ["-qec", command, "/dev/null"]
        let english = ["LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LC_NUMERIC": ""]
        process.environment = ProcessInfo.processInfo.environment.merging(english) { $1 }.merging(environment) { $1 }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        keyboard = input.fileHandleForWriting
        let reading = output.fileHandleForReading
        // Until the terminal closes (the program and `script` have ended).
        Thread.detachNewThread { [self] in
            while case let data = reading.availableData, !data.isEmpty {
                screen.withLock { $0.append(contentsOf: data) }
            }
        }
    }

    /// `text` as a shell reads it, whatever it holds.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// Everything the terminal has shown so far.
    public var shown: String { String(decoding: screen.withLock { $0 }, as: UTF8.self) }

    /// Types `keys` (a control character such as "\u{03}" for Ctrl+C included).
    public func type(_ keys: String) throws {
        try keyboard.write(contentsOf: Data(keys.utf8))
    }

    /// Whether the terminal comes to show `text` within `timeout`.
    public func shows(_ text: String, within timeout: Duration = .seconds(60)) async throws -> Bool {
        try await TestTiming.eventually(within: timeout) { shown.contains(text) }
    }

    /// Whether the program ends within `timeout`.
    public func ends(within timeout: Duration) async throws -> Bool {
        try await TestTiming.eventually(within: timeout) { !process.isRunning }
    }

    public var isRunning: Bool { process.isRunning }

    /// The program's exit status, once it has ended.
    public var status: Int32 { process.terminationStatus }

    /// Ends the run if it is still going: closing the terminal hangs its program up.
    public func end() {
        if process.isRunning { process.terminate() }
        try? keyboard.close()
    }
}
