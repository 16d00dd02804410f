import Glibc
import FoundationEssentials

/// llama-server's log file. Every server started appends to it under a heading of its own, so
/// two servers alive at once (a model switched while the other stops, tests side by side) never
/// wipe each other's lines; past a mebibyte it is set aside as `.old` and begun afresh.
enum LocalModelLog {
    static let rotationSize = 1 << 20

    /// Opens `file` for appending, private to the user, and writes `heading`; returns the
    /// descriptor, or -1 with `errno` set.
    static func open(_ file: URL, heading: String) -> Int32 {
        var status = stat()
        if stat(file.path, &status) == 0, status.st_size > rotationSize {
            rename(file.path, file.path + ".old")
        }
        let descriptor = Glibc.open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        fchmod(descriptor, 0o600)
        let line = Array("\n== \(heading)\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return descriptor
    }
}
