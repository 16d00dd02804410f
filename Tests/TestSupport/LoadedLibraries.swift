import Foundation

/// The shared libraries mapped into this process, read from `/proc/self/maps`.
public enum LoadedLibraries {
    /// Whether a library whose file name contains `name` is mapped.
    public static func contain(_ name: String) throws -> Bool {
        guard let maps = FileHandle(forReadingAtPath: "/proc/self/maps") else {
            throw ChildTestRun.Failed(description: "/proc/self/maps could not be opened")
        }
        defer { try? maps.close() }
        let text = String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
        guard text.contains("libc.so") else { throw ChildTestRun.Failed(description: "/proc/self/maps read as \(text.count) characters") }
        return text.contains(name)
    }
}
