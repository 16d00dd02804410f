import Foundation

/// A folder of a test's own under the temporary directory, made when a file is first written.
public struct TemporaryFolder: Sendable {
    public let url: URL

    /// A new folder named `prefix` and a UUID.
    public init(_ prefix: String) {
        url = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
    }

    /// Writes `bytes` to the file `name` in the folder; its URL.
    public func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let file = url.appending(path: name)
        try Data(bytes).write(to: file)
        return file
    }
}
