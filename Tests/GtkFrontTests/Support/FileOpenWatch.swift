import Glibc

/// Counts the times a file is opened, by anyone, from now on (inotify's `IN_OPEN`): whether
/// a step reads a file it should have read before.
final class FileOpenWatch {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Int32
    private(set) var opens = 0

    init(_ path: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw Failed(description: "inotify_init1: errno \(errno)") }
        guard inotify_add_watch(descriptor, path, UInt32(IN_OPEN)) >= 0 else {
            let failure = Failed(description: "inotify_add_watch \(path): errno \(errno)")
            close(descriptor)
            throw failure
        }
    }

    deinit { close(descriptor) }

    /// Reads the events so far; the count of opens since the watch began.
    func count() -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard read > 0 else { return opens }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= read {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                if event.mask & UInt32(IN_OPEN) != 0 { opens += 1 }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
    }
}
