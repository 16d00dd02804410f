/// Servers from text the user pasted: whatever another app's documentation or settings gave them.
extension MCPConfigDocument {
    /// Entries from text the user pasted: a whole file (`{"mcpServers": {...}}` or VS Code's `{"servers": {...}, "inputs": [...]}`),
    /// a bare `{NAME: {entry}}` object, or a single entry `{"command": ...}` / `{"url": ...}` — which gets a name from the
    /// command's basename (for npx/uvx/python -m etc. the package argument) or the URL's host. A fragment copied
    /// without its braces (`"time": {…},`) is read too. Each entry must be one this app understands; the first that
    /// is not is the error.
    public static func entries(pasted text: String) throws(MCPConfigError) -> [(name: String, entry: JSONValue)] {
        let value: JSONValue
        do throws(MCPConfigError) {
            value = try LenientJSONText.parse(text)
        } catch {
            guard text.trimmed.hasPrefix("\""), let fragment = try? LenientJSONText.parse("{" + text + "}") else { throw error }
            value = fragment
        }
        let entries = try serverEntries(in: value)
        for (name, entry) in entries {
            _ = try MCPServerConfig(name: name, entry: entry, environment: nil)
        }
        return entries
    }

    private static func serverEntries(in value: JSONValue) throws(MCPConfigError) -> [(name: String, entry: JSONValue)] {
        // TRANSLATORS: the JSON keys in quotes are not translated.
        let expected = tr("No MCP server found in it: expected \"mcpServers\": {…}, \"servers\": {…}, or a server with a \"command\" or a \"url\".")
        guard value.objectValue != nil else { throw MCPConfigError(expected) }
        let container = value["mcp"].flatMap { mcp in serversKey(in: mcp).map { (key: $0, value: mcp) } }
            ?? serversKey(in: value).map { (key: $0, value: value) }
        if let container {
            guard let members = container.value[container.key]?.objectValue else {
                // TRANSLATORS: %s is a key of the configuration, "mcpServers".
                throw MCPConfigError(tr("“%s” must be an object of servers by name.", container.key))
            }
            guard !members.isEmpty else { throw MCPConfigError(tr("No MCP server found in it: “%s” is empty.", container.key)) }
            return members.map { ($0.key, $0.value) }
        }
        if isServer(value) { return [(MCPServerNaming.name(for: value), value)] }
        if let members = value.objectValue, !members.isEmpty, members.allSatisfy({ $0.value.objectValue != nil }),
           members.contains(where: { isServer($0.value) }) {
            return members.map { ($0.key, $0.value) }
        }
        throw MCPConfigError(expected)
    }

    private static func isServer(_ value: JSONValue) -> Bool {
        (["command"] + MCPServerConfig.urlKeys).contains { value[$0] != nil }
    }
}
