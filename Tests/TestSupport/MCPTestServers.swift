import AgentCore
import Foundation

/// The MCP servers tests talk to: the reference `mcp-server-time` and an SDK-built HTTP
/// server, from the venv `scripts/install-test-servers` makes, and the scripted stdio
/// server in Tests/Servers for what real servers will not do on demand.
public enum MCPTestServers {
    /// The venv of `scripts/install-test-servers`.
    public static var venv: URL {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["AGENT_TEST_SERVERS_DIR"], !dir.isEmpty { return URL(filePath: dir).appending(path: "venv") }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(filePath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/share")
        return data.appending(path: "io.github.agentdesktop.Agent/test-servers/venv")
    }

    static var servers: URL { TiedProcess.serversDirectory }

    /// `mcp-server-time` over stdio, answering in UTC.
    public static func time(name: String = "time", timeout: Duration? = nil) -> MCPServerConfig {
        MCPServerConfig(name: name, transport: .stdio(command: venv.appending(path: "bin/mcp-server-time").path,
                                                      arguments: ["--local-timezone", "UTC"], environment: [], workingDirectory: nil),
                        timeout: timeout)
    }

    /// How the scripted server speaks.
    public enum ScriptedMode: Sendable {
        /// Every protocol version it knows, answering the one the client asks for.
        case usual
        /// Only the stateless protocol.
        case modernOnly
        /// Its `initialize` answers this version whatever the client asks for.
        case answering(String)
        /// Its `initialize` answers only after this many seconds: a server slow to start.
        case initializingFor(seconds: Double)
    }

    /// The scripted stdio server. Its time-out is roomy enough for Python to start and answer
    /// on a loaded machine (the sanitizer stage runs suites side by side, the local model's
    /// among them); a test of a time-out gives its own.
    public static func scripted(name: String = "scripted", _ mode: ScriptedMode = .usual,
                                timeout: Duration? = .seconds(30)) -> MCPServerConfig {
        let flags = switch mode {
        case .usual: [String]()
        case .modernOnly: ["--modern-only"]
        case .answering(let version): ["--answer-version", version]
        case .initializingFor(let seconds): ["--initialize-delay", String(seconds)]
        }
        return MCPServerConfig(name: name, transport: .stdio(command: "python3",
                                                             arguments: [servers.appending(path: "mcp_scripted_server.py").path] + flags,
                                                             environment: [], workingDirectory: nil),
                               timeout: timeout)
    }

    /// The scripted server over Streamable HTTP (`--http`), run for one test; it ends with
    /// `stop()` or the test process. `holdingStreams`: each POST's event stream stays open
    /// after its answer, until the client closes it.
    public final class ScriptedHTTPServer: Sendable {
        public let url: String
        private let base: String
        private let script: ServerScript

        public init(holdingStreams: Bool = false) throws {
            script = try ServerScript("mcp_scripted_server.py", ["--http"] + (holdingStreams ? ["--hold-streams"] : []))
            guard script.fields.count == 2, script.fields[0] == "READY", let port = Int(script.fields[1]) else {
                script.stop()
                let line = script.fields.joined(separator: " ")
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the scripted MCP server did not start: \(line)"])
            }
            base = "http://127.0.0.1:\(port)"
            url = base + "/mcp"
        }

        /// The methods of the requests whose event stream is still open, once none is or
        /// `timeout` (scaled) has passed.
        public func openStreams(settlingWithin timeout: Duration = .seconds(10)) async throws -> [String] {
            let deadline = ContinuousClock.now + timeout * TestTiming.scale
            var open = try await heldStreams().filter { !$0.closed }.map(\.method)
            while !open.isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
                open = try await heldStreams().filter { !$0.closed }.map(\.method)
            }
            return open
        }

        /// Every event stream it held open: the request's method, and whether the client has closed it.
        public func heldStreams() async throws -> [(method: String, closed: Bool)] {
            let body = try await HTTPClient.fetch(HTTPRequest(url: base + "/_streams")).body
            let all = (try JSONSerialization.jsonObject(with: body) as? [[String: Any]]) ?? []
            return all.map { (method: $0["method"] as? String ?? "", closed: $0["closed"] as? Bool ?? false) }
        }

        public func config(name: String = "scripted-web") -> MCPServerConfig {
            MCPServerConfig(name: name, transport: .http(url: url, headers: []), timeout: .seconds(30))
        }

        public func stop() {
            script.stop()
        }
    }

    /// The SDK's HTTP server, run for one test; it ends with `stop()` or the test process.
    public final class HTTPServer: Sendable {
        public let port: Int
        public let token: String
        private let script: ServerScript

        /// `transport`: "streamable-http" or "sse"; `port` 0 picks a free one.
        /// `tlsDirectory`: serve HTTPS with its server.crt and server.key.
        public init(transport: String = "streamable-http", token: String = "s3cret-\(UUID().uuidString.prefix(8))", port: Int = 0,
                    tlsDirectory: String? = nil) throws {
            script = try ServerScript("mcp_http_server.py", ["--port", String(port), "--token", token, "--transport", transport]
                                      + (tlsDirectory.map { ["--tls-dir", $0] } ?? []),
                                      python: MCPTestServers.venv.appending(path: "bin/python"))
            let line = script.fields.joined(separator: " ")
            guard script.fields.count == 2, script.fields[0] == "READY", let ready = Int(script.fields[1]) else {
                script.stop()
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the MCP HTTP server did not start: \(line)"])
            }
            self.port = ready
            self.token = token
            scheme = tlsDirectory == nil ? "http" : "https"
        }

        private let scheme: String
        public var url: String { "\(scheme)://127.0.0.1:\(port)/mcp" }
        public var sseURL: String { "\(scheme)://127.0.0.1:\(port)/sse" }

        public func config(name: String = "web", token: String? = nil, url: String? = nil, sse: Bool = false) -> MCPServerConfig {
            let headers = [MCPServerConfig.Variable(name: "Authorization", value: "Bearer \(token ?? self.token)")]
            let address = url ?? (sse ? sseURL : self.url)
            return MCPServerConfig(name: name, transport: sse ? .sse(url: address, headers: headers) : .http(url: address, headers: headers),
                                   timeout: .seconds(20))
        }

        /// Ends the server at once: it exits when its stdin closes (uvicorn's own shutdown
        /// on SIGTERM waits for open sessions).
        public func stop() {
            script.stop()
        }
    }
}

/// Approves (or refuses) every call and remembers what it was asked.
public final class RecordingApprover: MCPToolApprover, @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [MCPToolCallQuestion] = []
    private let answer: Bool

    public init(answer: Bool = true) {
        self.answer = answer
    }

    public var questions: [MCPToolCallQuestion] { lock.withLock { asked } }

    public func approve(_ question: MCPToolCallQuestion) async -> Bool {
        lock.withLock { asked.append(question) }
        return answer
    }
}
