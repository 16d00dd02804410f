import AgentCore
import Foundation

/// The keep-alive streaming server (Tests/Servers/keepalive_server.py), one per test: it
/// counts the connections a client opens and can drop a kept-alive one on demand.
public final class KeepAliveServer: Sendable {
    /// What the server has seen since it started.
    public struct Stats: Sendable {
        public let connections: Int
        public let open: Int
        public let dropped: Int
        public let requests: Int
    }

    public let port: Int
    public let tlsPort: Int
    public let caFile: String
    private let script: ServerScript

    public init() throws {
        script = try ServerScript("keepalive_server.py")
        let listening = try script.listening()
        port = listening.port
        tlsPort = listening.tlsPort
        caFile = listening.caFile
    }

    /// The server URL that selects `scenario`, over HTTPS when `tls`.
    public func url(_ scenario: String, tls: Bool = false) -> String {
        tls ? "https://127.0.0.1:\(tlsPort)/s/\(scenario)" : "http://127.0.0.1:\(port)/s/\(scenario)"
    }

    /// The counts so far (connections that only read the counts are not counted).
    public func stats() async throws -> Stats {
        let body = try await HTTPClient.fetch(HTTPRequest(url: "http://127.0.0.1:\(port)/_stats")).body
        let json = try JSONSerialization.jsonObject(with: body) as? [String: Int] ?? [:]
        return Stats(connections: json["connections"] ?? -1, open: json["open"] ?? -1,
                     dropped: json["dropped"] ?? -1, requests: json["requests"] ?? -1)
    }

    /// Waits for the counts to satisfy `condition` (within the tests' time scale); the last counts read.
    public func stats(until condition: (Stats) -> Bool) async throws -> Stats {
        let deadline = ContinuousClock.now + .seconds(30) * TestTiming.scale
        var stats = try await stats()
        while !condition(stats), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            stats = try await self.stats()
        }
        return stats
    }

    /// Lets held replies finish.
    public func release() async throws {
        _ = try await HTTPClient.fetch(HTTPRequest(url: "http://127.0.0.1:\(port)/_release"))
    }

    public func stop() {
        script.stop()
    }
}
