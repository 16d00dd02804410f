import Glibc

/// Reading a file descriptor (a child's pipe, standard input) to its end, through a
/// signal's interruptions.
public enum FileDescriptorReading {
    /// Reads `descriptor` until end of file, handing on what arrives; 0 at the end of the
    /// file, else the errno that stopped the reading.
    @discardableResult
    public static func drain(_ descriptor: Int32, _ handle: (UnsafeRawBufferPointer) -> Void) -> Int32 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : 0 }
            handle(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
