import Glibc

/// Writing all of a buffer to a file descriptor (a file, a pipe, stdout): `write` may take
/// part of it, be interrupted by a signal, or find a non-blocking descriptor full for now.
public enum FileDescriptorWriting {
    /// 0 when every byte was written, else the errno that stopped it.
    @discardableResult
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
                return errno
            }
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
