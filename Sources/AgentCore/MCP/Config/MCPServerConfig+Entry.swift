/// Reading one entry of `mcpServers` in any of the shapes other apps write (Claude Desktop,
/// Cursor, Claude Code, VS Code, Windsurf, Gemini CLI, Cline, Roo), so a pasted entry works
/// as it did there. Keys it does not know (`autoApprove`, `trust`, `envFile`, …) are ignored.
extension MCPServerConfig {
    /// Keys that hold a server's URL: `url` (most apps), `serverUrl` (Windsurf), `httpUrl` (Gemini CLI).
    static let urlKeys = ["url", "serverUrl", "httpUrl"]

    /// The entry `entry` named `name`, its `${VAR}` references expanded from `environment`;
    /// with no environment they stay as written (to check a pasted entry's shape only).
    init(name: String, entry: JSONValue, environment: [String: String]?) throws(MCPConfigError) {
        // TRANSLATORS: %1$s is an MCP server's name, %2$s what is wrong with its entry.
        func problem(_ text: String) -> MCPConfigError { MCPConfigError(tr("Server “%1$s”: %2$s", name, text)) }
        func expand(_ text: String) -> String {
            environment.map { MCPConfigExpansion.expand(text, environment: $0) } ?? text
        }
        func string(_ key: String) throws(MCPConfigError) -> String? {
            switch entry[key] {
            case nil, .null?: return nil
            case .string(let text)?: return expand(text)
            // TRANSLATORS: %s is a key of an MCP server's entry, "command"; so in the messages that follow.
            default: throw problem(tr("“%s” must be text.", key))
            }
        }
        func strings(_ key: String) throws(MCPConfigError) -> [String] {
            guard let value = entry[key], !value.isNull else { return [] }
            guard let texts = value.arrayValue?.compactMap(\.stringValue), texts.count == value.arrayValue?.count else {
                throw problem(tr("“%s” must be a list of text values.", key))
            }
            return texts.map(expand)
        }
        func variables(_ key: String) throws(MCPConfigError) -> [Variable] {
            guard let value = entry[key], !value.isNull else { return [] }
            guard let members = value.objectValue else { throw problem(tr("“%s” must be an object of names and values.", key)) }
            var variables: [Variable] = []
            for member in members {
                guard let text = member.value.stringValue else { throw problem(tr("“%1$s”: the value of “%2$s” must be text.", key, member.key)) }
                variables.append(Variable(name: member.key, value: expand(text)))
            }
            return variables
        }

        guard !name.isEmpty else { throw MCPConfigError(tr("A server has an empty name.")) }
        guard entry.objectValue != nil else { throw problem(tr("its entry must be an object, such as {\"command\": …} or {\"url\": …}.")) }
        let command = try string("command")
        var url: String?
        if let key = Self.urlKeys.first(where: { entry[$0] != nil && entry[$0] != .null }) {
            url = try string(key)
        }

        let kind: Kind
        switch try string("type")?.lowercased() {
        case "stdio"?: kind = .stdio
        case "http"?, "streamable-http"?, "streamablehttp"?, "streamable_http"?: kind = .http
        case "sse"?: kind = .sse
        case nil:
            // TRANSLATORS: “command” and “url” are keys of the configuration, not translated.
            guard command != nil || url != nil else { throw problem(tr("it has neither a “command” nor a “url”.")) }
            kind = command != nil ? .stdio : .http
        // TRANSLATORS: “type” is a key of the configuration; stdio, http and sse its values, not translated.
        case let other?: throw problem(tr("unknown “type” “%s” (expected stdio, http or sse).", other))
        }

        switch kind {
        case .stdio:
            guard let command else { throw problem(tr("“type” is stdio but there is no “command”.")) }
            guard !command.trimmed.isEmpty else { throw problem(tr("“command” is empty.")) }
            let directory = try string("cwd")
            transport = .stdio(command: command, arguments: try strings("args"), environment: try variables("env"),
                               workingDirectory: directory?.isEmpty == false ? directory : nil)
        case .http, .sse:
            // TRANSLATORS: %s is http or sse.
            guard let url else { throw problem(tr("“type” is %s but there is no “url”.", "\(kind)")) }
            let lowered = url.trimmed.lowercased()
            let checkable = environment != nil || !url.contains("${")
            guard !checkable || lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
                throw problem(tr("its URL “%s” must start with http:// or https://.", url))
            }
            let headers = try variables("headers")
            transport = kind == .sse ? .sse(url: url.trimmed, headers: headers) : .http(url: url.trimmed, headers: headers)
        }

        switch entry["disabled"] {
        case nil, .null?: disabled = false
        case .bool(let flag)?: disabled = flag
        default: throw problem(tr("“disabled” must be true or false."))
        }
        switch entry["timeout"] {
        case nil, .null?: timeout = nil
        case .number(let number)? where number.isFinite && number > 0: timeout = Self.timeout(number)
        default: throw problem(tr("“timeout” must be a positive number (seconds, or milliseconds from 1000 on)."))
        }
        caFile = try string("caFile")
        self.name = name
    }

    /// Apps disagree on the unit: Gemini CLI counts milliseconds (`600000`), Cline seconds (`60`).
    /// No one wants a call limit of 1000 s or more, nor under a second, so from 1000 on the number
    /// is milliseconds, below it seconds. At most a day, so absurd values cannot overflow.
    private static func timeout(_ number: Double) -> Duration {
        let seconds = number >= 1000 ? number / 1000 : number
        return .milliseconds(max(1, Int64((min(seconds, 86_400) * 1000).rounded())))
    }

    private enum Kind {
        case stdio, http, sse
    }
}
