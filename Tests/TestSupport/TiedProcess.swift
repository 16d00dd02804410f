import Foundation

/// A helper process (a bus, a mock service) that ends when the test process does, killed
/// or not: it runs under Tests/Servers/run-tied, which watches this process.
public enum TiedProcess {
    public static func make(_ executable: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(filePath: serversDirectory.appending(path: "run-tied").path)
        process.arguments = [String(getpid()), executable] + arguments
        return process
    }

    /// Tests/Servers/: the test servers, templates and scripts.
    public static let serversDirectory = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Servers", directoryHint: .isDirectory)
}
