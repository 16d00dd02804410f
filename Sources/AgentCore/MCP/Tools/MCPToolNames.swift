/// The names MCP tools go by with the model. Every backend must accept them (OpenAI allows
/// `^[a-zA-Z0-9_-]{1,64}$`; MCP names may be up to 128 characters and hold dots), and they
/// must be unique across servers and Agent's own tools. A tool keeps its own name when
/// that is possible — small models call `get_current_time` more readily than
/// `time__get_current_time` — and is prefixed with its server's name otherwise.
public enum MCPToolNames {
    public static let maximumLength = 64

    /// The exposed name of every (server, tool), in order.
    public static func assign(_ tools: [(server: String, tool: String)], reserved: Set<String>) -> [String] {
        var bareCounts: [String: Int] = [:]
        for entry in tools { bareCounts[sanitized(entry.tool), default: 0] += 1 }
        var taken = reserved
        return tools.map { entry in
            let bare = sanitized(entry.tool)
            var name = bare
            if bare.count > maximumLength || bareCounts[bare, default: 0] > 1 || taken.contains(bare) {
                name = shortened(sanitized(entry.server) + "__" + bare, original: entry.server + "/" + entry.tool)
            }
            var attempt = 1
            while taken.contains(name) {
                attempt += 1
                name = shortened(sanitized(entry.server) + "__" + bare + "_\(attempt)", original: "\(entry.server)/\(entry.tool)/\(attempt)")
            }
            taken.insert(name)
            return name
        }
    }

    /// `name` with every character outside `[A-Za-z0-9_-]` made `_`.
    static func sanitized(_ name: String) -> String {
        let mapped = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "_"
        })
        return mapped.isEmpty ? "tool" : mapped
    }

    /// `name` cut to the limit, ending in a hash of `original` so cut names stay apart.
    private static func shortened(_ name: String, original: String) -> String {
        guard name.count > maximumLength else { return name }
        let suffix = String(StableHash.hex(original).suffix(8))
        return String(name.prefix(maximumLength - suffix.count - 1)) + "_" + suffix
    }
}
