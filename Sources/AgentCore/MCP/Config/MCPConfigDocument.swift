/// The MCP server list (`mcp.json`) as a document that can be edited without losing what the
/// user wrote: edits change only the entry they concern, and everything else — keys this app
/// does not know, other apps' settings, `${VAR}` references — is written back as it was read.
public struct MCPConfigDocument: Sendable, Equatable {
    /// The JSON as read (or an empty {"mcpServers": {}}), edits applied; unknown keys and the servers' unexpanded `${VAR}` text are kept.
    public private(set) var json: JSONValue

    /// An empty document.
    public init() {
        json = .object([("mcpServers", .object([]))])
    }

    /// The whole file's text. Comments and trailing commas are tolerated (VS Code writes them);
    /// an empty file is an empty document.
    public init(parsing text: String) throws(MCPConfigError) {
        guard !text.trimmed.isEmpty, text.trimmed != "\u{FEFF}" else {
            self = MCPConfigDocument()
            return
        }
        let value = try LenientJSONText.parse(text)
        guard value.objectValue != nil else {
            throw MCPConfigError(tr("The MCP configuration must be a JSON object, such as {\"mcpServers\": {…}}."))
        }
        if let key = Self.serversKey(in: value), value[key]?.objectValue == nil {
            // TRANSLATORS: %1$s and %2$s are the same key of the configuration, "mcpServers"; the JSON is not translated.
            throw MCPConfigError(tr("“%1$s” must be an object of servers by name, such as {\"%2$s\": {\"time\": {\"command\": \"uvx\", …}}}.", key, key))
        }
        json = value
    }

    /// The servers, with ${VAR}, ${env:VAR} and ${VAR:-default} expanded from `environment` in `command`, `args`,
    /// `env` values, `cwd`, `url` and `headers` values. An entry that cannot be understood (no command and no url,
    /// wrong types) is reported in `problems` and left out, it does not fail the whole file.
    public func servers(environment: [String: String]) -> (servers: [MCPServerConfig], problems: [String]) {
        var servers: [MCPServerConfig] = []
        var problems: [String] = []
        for (name, entry) in entries {
            do throws(MCPConfigError) {
                servers.append(try MCPServerConfig(name: name, entry: entry, environment: environment))
            } catch {
                problems.append(error.description)
            }
        }
        return (servers, problems)
    }

    /// The servers' names in file order.
    public var serverNames: [String] {
        entries.map(\.name)
    }

    /// Adds the server `name`, or replaces the one of that name where it stands.
    public mutating func add(name: String, entry: JSONValue) {
        editServers { members in
            if let first = members.firstIndex(where: { $0.key == name }) {
                members[first].value = entry
                var seen = false  // later duplicates go: the file then holds one entry of that name
                members.removeAll { member in
                    guard member.key == name else { return false }
                    defer { seen = true }
                    return seen
                }
            } else {
                members.append((name, entry))
            }
        }
    }

    public mutating func remove(name: String) {
        editServers { members in members.removeAll { $0.key == name } }
    }

    /// Writes `"disabled": true` into the server's entry, or removes the key to enable it.
    public mutating func setDisabled(_ disabled: Bool, name: String) {
        editServers { members in
            for index in members.indices where members[index].key == name {
                guard case .object(var fields) = members[index].value else { continue }
                if disabled {
                    if let existing = fields.firstIndex(where: { $0.key == "disabled" }) {
                        fields[existing].value = .bool(true)
                        fields.removeAll { $0.key == "disabled" && $0.value != .bool(true) }
                    } else {
                        fields.append(("disabled", .bool(true)))
                    }
                } else {
                    fields.removeAll { $0.key == "disabled" }
                }
                members[index].value = .object(fields)
            }
        }
    }

    /// Pretty-printed JSON (2-space indent, keys in their order, newline at the end) for writing back.
    public var text: String {
        json.prettyPrinted + "\n"
    }

    /// The key holding the servers: `mcpServers` (most apps) or `servers` (VS Code).
    static func serversKey(in value: JSONValue) -> String? {
        ["mcpServers", "servers"].first { value[$0] != nil }
    }

    /// The servers' entries in file order; a name given twice counts once, with its last entry
    /// (as JSON readers take the last of repeated keys).
    private var entries: [(name: String, entry: JSONValue)] {
        guard let key = Self.serversKey(in: json), let members = json[key]?.objectValue else { return [] }
        var seen = Set<String>()
        var entries: [(name: String, entry: JSONValue)] = []
        for member in members.reversed() where seen.insert(member.key).inserted {
            entries.append((member.key, member.value))
        }
        return entries.reversed()
    }

    /// Applies `edit` to the servers' members, adding `"mcpServers": {}` first if the file has none.
    private mutating func editServers(_ edit: (inout [(key: String, value: JSONValue)]) -> Void) {
        guard case .object(var fields) = json else { return }
        let key = Self.serversKey(in: json) ?? "mcpServers"
        if !fields.contains(where: { $0.key == key }) { fields.append((key, .object([]))) }
        guard let index = fields.lastIndex(where: { $0.key == key }), case .object(var members) = fields[index].value else { return }
        edit(&members)
        fields[index].value = .object(members)
        json = .object(fields)
    }
}
