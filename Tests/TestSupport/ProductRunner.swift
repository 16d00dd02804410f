import Foundation
import Synchronization

/// Runs a product of this package (`agent-cli`, `agent`) as a child process, the way a
/// user or a script would, and collects what it prints.
public struct ProductRunner {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The built executable next to the test bundle.
    public static func executable(_ name: String) throws -> URL {
        let directory = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = directory.appending(path: name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path + " (run `swift build` before the tests)"])
        }
        return url
    }

    /// Starts `name` with `arguments`; `stdin` is written and closed.
    public static func start(_ name: String, _ arguments: [String], stdin: String = "",
                      environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        // English, whatever the developer's own locale, unless the test asks for another.
        let english = ["LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LC_NUMERIC": ""]
        process.environment = ProcessInfo.processInfo.environment.merging(english) { $1 }.merging(environment) { $1 }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        return (process, output, error)
    }

    /// Runs `name` to completion.
    public static func run(_ name: String, _ arguments: [String], stdin: String = "",
                    environment: [String: String] = [:]) async throws -> Output {
        let (process, output, error) = try start(name, arguments, stdin: stdin, environment: environment)
        async let out = readToEnd(output.fileHandleForReading)
        async let err = readToEnd(error.fileHandleForReading)
        let (stdout, stderr) = await (out, err)
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Everything `handle` delivers until its end, read on a thread of its own: a blocking
    /// read on Swift's cooperative pool (one thread per core) would stall every other test.
    public static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }

    /// The next data `handle` delivers (empty at its end), read on a thread of its own.
    public static func nextData(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: handle.availableData) }
        }
    }
}
