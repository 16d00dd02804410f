import Foundation

/// The shared libraries mapped into this process, read from `/proc/self/maps`.
public enum LoadedLibraries {
    /// The map could not be read.
    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether a library whose file name contains `name` is mapped.
    public static func contain(_ name: String) throws -> Bool {
        guard let maps = FileHandle(forReadingAtPath: "/proc/self/maps") else {
            throw Unreadable(description: "/proc/self/maps could not be opened")
        }
        defer { try? maps.close() }
        let text = String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
        guard text.contains("libc.so") else { throw Unreadable(description: "/proc/self/maps read as \(text.count) characters") }
        return text.contains(name)
    }
}
