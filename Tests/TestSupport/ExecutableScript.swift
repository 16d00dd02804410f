import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A script a test writes and then runs. Written through a descriptor closed on exec:
/// Foundation's atomic write leaves its temporary file's descriptor inheritable, so a child
/// another test spawned meanwhile could keep the file open for writing, and running the
/// script would then fail with "Text file busy".
public enum ExecutableScript {
    /// Writes `text` to `file`, executable.
    public static func write(_ text: String, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            bytes = bytes.dropFirst(written)
        }
        // The mode asked of open() is masked by the umask.
        guard fchmod(descriptor, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
