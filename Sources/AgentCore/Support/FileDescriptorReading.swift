import FoundationEssentials
import Glibc

/// Reading a file descriptor (a child's pipe, standard input, a file) to its end, through a
/// signal's interruptions.
public enum FileDescriptorReading {
    /// Reads `descriptor` until end of file, handing on what arrives; 0 at the end of the
    /// file, else the errno that stopped the reading.
    @discardableResult
    public static func drain(_ descriptor: Int32, _ handle: (UnsafeRawBufferPointer) -> Void) -> Int32 {
        readChunks(descriptor) { chunk in
            handle(chunk)
            return true
        }
    }

    /// All of the file at `path`, read to its end: a regular file, or a pipe such as
    /// /dev/stdin (which has no size to read up front).
    public static func contents(of path: String) throws(POSIXError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        let error = drain(descriptor) { bytes.append(contentsOf: $0) }
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        return bytes
    }

    /// All of the regular file at `path` when it holds at most `limit` bytes, else nil (nil
    /// too when it cannot be read, or is not a regular file now: opening a pipe put in its
    /// place does not wait for a writer). Read to its end rather than trusting its size: a
    /// file in /proc says 0 bytes, and some never end.
    static func contents(of path: String, atMost limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        let error = readChunks(descriptor) { chunk in
            bytes.append(contentsOf: chunk)
            return bytes.count <= limit
        }
        return error == 0 && bytes.count <= limit ? bytes : nil
    }

    /// Reads `descriptor` chunk by chunk until end of file, or until `handle` returns false;
    /// 0 then, else the errno that stopped the reading.
    private static func readChunks(_ descriptor: Int32, _ handle: (UnsafeRawBufferPointer) -> Bool) -> Int32 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : 0 }
            guard handle(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else { return 0 }
        }
    }
}
