import Glibc

/// A port on 127.0.0.1 that nothing listens on (bound for a moment, then released): a
/// connection to it is refused.
public func agentTestFreePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return 9 }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
        }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : 9
}
