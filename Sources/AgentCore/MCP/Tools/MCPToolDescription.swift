/// A tool as an MCP server lists it.
public struct MCPToolDescription: Sendable, Equatable {
    /// The server's name for it (what `tools/call` takes).
    public var name: String
    /// What people read: `title`, else `annotations.title`, else the name.
    public var title: String
    public var description: String
    /// The JSON Schema of its arguments, passed to the model unchanged.
    public var inputSchema: JSONValue
    /// The server's hints (`readOnlyHint`, `destructiveHint`, …): shown, never trusted.
    public var annotations: JSONValue?

    public init(name: String, title: String? = nil, description: String, inputSchema: JSONValue, annotations: JSONValue? = nil) {
        self.name = name
        self.title = title ?? name
        self.description = description
        self.inputSchema = inputSchema
        self.annotations = annotations
    }

    init?(_ json: JSONValue) {
        guard let name = json["name"]?.stringValue, !name.isEmpty else { return nil }
        // `type` first, as models saw schemas written in training (small ones falter on
        // `{"properties": …, "type": "object"}`); JSON gives member order no meaning.
        var schema = json["inputSchema"] ?? .object([])
        if case .object(var members) = schema {
            let type = members.last { $0.key == "type" }?.value ?? .string("object")
            members.removeAll { $0.key == "type" }
            members.insert(("type", type), at: 0)
            schema = .object(members)
        }
        self.init(name: name, title: json["title"]?.stringValue ?? json["annotations"]?["title"]?.stringValue,
                  description: json["description"]?.stringValue ?? "", inputSchema: schema, annotations: json["annotations"])
    }

    /// The hints as a user reads them ("read-only", "destructive", …); empty without any.
    public var hints: [String] {
        guard let annotations else { return [] }
        var hints: [String] = []
        // TRANSLATORS: what an MCP server says of one of its tools; each completes "The server %s." and
        // "(the server %s)".
        if annotations["readOnlyHint"]?.boolValue == true { hints.append(tr("says it only reads")) }
        else if annotations["destructiveHint"]?.boolValue == true { hints.append(tr("says it may change or delete things")) }
        if annotations["openWorldHint"]?.boolValue == true { hints.append(tr("says it reaches outside services")) }
        return hints
    }
}
