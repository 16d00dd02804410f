/// Secret HTTP headers of MCP servers (an `Authorization` value typed into Preferences)
/// live in the keyring, not in `mcp.json`: one item per server holding its secret headers
/// as a JSON object. They join the file's own headers when the server is reached.
public enum MCPKeyringHeaders {
    /// Headers whose values are secrets, by name (case-insensitive).
    public static func isSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered == "authorization" || lowered == "proxy-authorization" || lowered.contains("api-key")
            || lowered.contains("token") || lowered.contains("secret")
    }

    static func keyringID(_ server: String) -> String { "mcp:\(server)" }

    /// Keeps `headers` for `server` in the keyring (replacing what was there; none: removed).
    public static func store(_ headers: [MCPServerConfig.Variable], for server: String, in secrets: SecretStore) async {
        guard !headers.isEmpty else {
            await secrets.clear(keyringID(server))
            return
        }
        let json = JSONValue.object(headers.map { ($0.name, .string($0.value)) })
        await secrets.store(APIKey(json.serialized), for: keyringID(server), label: tr("Agent: headers for the MCP server %s", server))
    }

    public static func remove(for server: String, in secrets: SecretStore) async {
        await secrets.clear(keyringID(server))
    }

    /// `configs` with each HTTP server's headers from the keyring added (a header the file
    /// names too keeps the file's value: pasted JSON that holds one keeps working).
    public static func adding(to configs: [MCPServerConfig], from secrets: SecretStore) async -> [MCPServerConfig] {
        var result: [MCPServerConfig] = []
        for var config in configs {
            switch config.transport {
            case .http(let url, let headers), .sse(let url, let headers):
                if let stored = await secrets.key(for: keyringID(config.name)),
                   let members = (try? JSONParser.parse(stored.value))?.objectValue {
                    var merged = headers
                    for member in members where !headers.contains(where: { $0.name.lowercased() == member.key.lowercased() }) {
                        if let value = member.value.stringValue { merged.append(.init(name: member.key, value: value)) }
                    }
                    if case .http = config.transport {
                        config.transport = .http(url: url, headers: merged)
                    } else {
                        config.transport = .sse(url: url, headers: merged)
                    }
                }
            case .stdio:
                break
            }
            result.append(config)
        }
        return result
    }
}
