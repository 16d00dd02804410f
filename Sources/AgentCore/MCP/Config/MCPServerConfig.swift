/// One MCP server as configured: how to reach it, whether it is on, its call time limit.
public struct MCPServerConfig: Sendable, Equatable {
    /// An environment variable or an HTTP header, in the order the file gives them.
    public struct Variable: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public enum Transport: Sendable, Equatable {
        /// A child process speaking newline-delimited JSON-RPC on stdin/stdout.
        case stdio(command: String, arguments: [String], environment: [Variable], workingDirectory: String?)
        /// Streamable HTTP (falls back to the old HTTP+SSE transport when the server answers 400/404/405 to the first POST).
        case http(url: String, headers: [Variable])
        /// The old HTTP+SSE transport (2024-11-05), when the config says `"type": "sse"`.
        case sse(url: String, headers: [Variable])
    }

    /// The server's key in `mcpServers`.
    public var name: String
    public var transport: Transport
    public var disabled: Bool
    /// The time limit of each request to it (the handshake, listing, every call); nil = the default (60 s).
    public var timeout: Duration?
    /// The time limit of each request while it starts (the handshake and the first listing),
    /// when that differs from `timeout`; nil = `timeout`. Not in mcp.json: for the package's
    /// tests, which give a call a short limit but a slow-starting server the usual time.
    package var startTimeout: Duration?
    /// An HTTP server's CA certificates (PEM), replacing the system's, as for chat servers:
    /// `"caFile"` in its entry (Agent's own key; other apps ignore it).
    public var caFile: String?

    public static let defaultTimeout: Duration = .seconds(60)

    public init(name: String, transport: Transport, disabled: Bool = false, timeout: Duration? = nil) {
        self.name = name
        self.transport = transport
        self.disabled = disabled
        self.timeout = timeout
    }

    public var isStdio: Bool {
        if case .stdio = transport { return true }
        return false
    }

    /// The command line as the consent dialog shows it: command and arguments, shell-quoted where needed (spaces, quotes, $ etc.), in full.
    /// The process is started without a shell, so a `command` holding spaces is one word and shows quoted.
    public var commandLine: String? {
        guard case .stdio(let command, let arguments, _, _) = transport else { return nil }
        return ([command] + arguments).map(ShellQuoting.quoted).joined(separator: " ")
    }

    /// A stable fingerprint of what would run (command, arguments, environment names and values, working
    /// directory; or the URL), to remember that the user approved exactly this launch: any change asks again.
    /// FNV-1a (64 bits, hex) over a JSON array of those parts, which JSON escaping keeps unambiguous.
    public var launchFingerprint: String {
        let parts: [JSONValue] = switch transport {
        case .stdio(let command, let arguments, let environment, let workingDirectory):
            [.string("stdio"), .string(command), .array(arguments.map(JSONValue.string)),
             .array(environment.map { .array([.string($0.name), .string($0.value)]) }),
             workingDirectory.map(JSONValue.string) ?? .null]
        case .http(let url, _): [.string("http"), .string(url)]
        case .sse(let url, _): [.string("sse"), .string(url)]
        }
        return StableHash.hex(JSONValue.array(parts).serialized)
    }
}
