import Glibc

/// Writing all of a buffer to a file descriptor (a file, a pipe, stdout): `write` may take
/// part of it, or be interrupted by a signal.
public enum FileDescriptorWriting {
    /// 0 when every byte was written, else the errno that stopped it.
    @discardableResult
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return 0
    }

    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
}
