import Foundation
import Glibc

/// A model server on a port of this computer as Agent finds one (Tests/Servers/local_model_server.py):
/// Ollama, llama-server, vLLM or LM Studio answering a model listing, or one that answers
/// garbage or stalls. It stops when the test process ends or `stop()` is called.
public final class LocalModelServerImitation: Sendable {
    public enum Kind: Sendable {
        case ollama, llamacpp, vllm, lmstudio, garbage, stall
        /// Answers every request with a redirect to `location`.
        case redirect(location: String)

        var arguments: [String] {
            switch self {
            case .redirect(let location): ["--kind", "redirect", "--location", location]
            default: ["--kind", "\(self)"]
            }
        }
    }

    public let host: String
    public let port: Int
    private let script: ServerScript

    /// The URL discovery reports for it: `http://127.0.0.1:PORT` or `http://[::1]:PORT`.
    public var url: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// Starts one on `host` and `port` (0: any free port); throws when it cannot listen there.
    public init(_ kind: Kind, host: String = "127.0.0.1", port: Int = 0) throws {
        script = try ServerScript("local_model_server.py", ["--host", host, "--port", String(port)] + kind.arguments, showErrors: true)
        guard script.fields.count == 2, let listening = Int(script.fields[1]) else {
            throw CannotListen(host: host, port: port)
        }
        self.host = host
        self.port = listening
    }

    public func stop() {
        script.stop()
    }

    public struct CannotListen: Error, CustomStringConvertible {
        let host: String
        let port: Int
        public var description: String { "the imitation server could not listen on \(host) port \(port)" }
    }

    /// Whether nothing on this machine holds TCP `port` on 127.0.0.1 or ::1 (so a test may
    /// listen there as the server it imitates).
    public static func isFree(_ port: Int) -> Bool {
        canBind(port, ipv6: false) && canBind(port, ipv6: true)
    }

    /// A port nothing listens on now (bound for a moment, then let go).
    public static func unusedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 ? getsockname(descriptor, pointer, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func canBind(_ port: Int, ipv6: Bool) -> Bool {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
