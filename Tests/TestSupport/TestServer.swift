import AgentCore
import Foundation
import Synchronization

/// The scriptable OpenAI-compatible test server (Tests/Servers/openai_test_server.py),
/// one per test process, started on first use on a free port.
public final class TestServer: Sendable {
    public static let shared: TestServer = {
        do {
            return try TestServer()
        } catch {
            fatalError("could not start the test server: \(error)")
        }
    }()

    public let port: Int
    /// The same server over HTTPS, its certificate signed by the CA in `caFile`.
    public let tlsPort: Int
    public let caFile: String
    private let script: ServerScript

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The HTTPS base URL that selects `scenario`.
    public func tlsURL(_ scenario: String) -> String { "https://127.0.0.1:\(tlsPort)/s/\(scenario)" }

    /// The base URL that selects `scenario` (the API path is appended by the client).
    public func url(_ scenario: String) -> String { "\(baseURL)/s/\(scenario)" }

    /// A scenario whose reply streams its first token and then waits until `release(_:)`,
    /// `msPerToken` apart after that: a test acts while the reply surely still streams.
    /// The first `passing` requests stream to their end without waiting (the turns before
    /// the one the test acts in); `reply` is the text, "slow" (as `slow-<ms>`), "markup"
    /// (as `markup-<ms>`) or "markdown" (as `markdown-<ms>`, held in the middle of its code block).
    public func gate(msPerToken: Int = 5, passing: Int = 0, reply: String = "slow") -> String {
        "gate-\(msPerToken)-\(passing)-\(reply)-\(uniqueMarker())"
    }

    /// Lets a `gate(msPerToken:)` reply go on to its end.
    public func release(_ scenario: String) async throws {
        _ = try await get("/_release/\(scenario)")
    }

    private init() throws {
        script = try ServerScript("openai_test_server.py")
        let listening = try script.listening()
        port = listening.port
        tlsPort = listening.tlsPort
        caFile = listening.caFile
    }

    /// The requests the server has recorded whose path contains `marker`.
    public func requests(containing marker: String) async throws -> [[String: Any]] {
        let data = try await get("/_requests")
        let all = (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
        return all.filter { ($0["path"] as? String)?.contains(marker) == true }
    }

    /// The server's connection events (e.g. a client closing a stalled stream).
    public func events() async throws -> [[String: Any]] {
        let data = try await get("/_events")
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The names of the connection events of the requests whose path contains `marker`.
    public func events(containing marker: String) async throws -> [String] {
        try await events().filter { ($0["path"] as? String)?.contains(marker) == true }.compactMap { $0["event"] as? String }
    }

    /// Whether the event `name` of a request whose path contains `marker` arrives within `timeout`.
    public func event(_ name: String, containing marker: String, within timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout * TestTiming.scale
        while ContinuousClock.now < deadline {
            if try await events(containing: marker).contains(name) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await events(containing: marker).contains(name)
    }

    private func get(_ path: String) async throws -> Data {
        try await HTTPClient.fetch(HTTPRequest(url: baseURL + path)).body
    }
}

extension FileHandle {
    /// Reads one line (without its newline) byte by byte, for a child's first line of output.
    public func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}

/// A unique marker to tell this test's requests apart in the shared server's record.
public func uniqueMarker(_ name: String = "t") -> String {
    "\(name)-\(UUID().uuidString.prefix(8))"
}
