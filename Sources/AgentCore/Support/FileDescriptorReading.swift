import Glibc

/// Reading a file descriptor (a child's pipe) to its end, through a signal's interruptions.
enum FileDescriptorReading {
    /// Reads `descriptor` until end of file, handing on what arrives.
    static func drain(_ descriptor: Int32, _ handle: (UnsafeRawBufferPointer) -> Void) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            handle(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
