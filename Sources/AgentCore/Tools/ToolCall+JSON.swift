/// A tool call as JSON, member for member, for the database and chat exports.
extension ToolCall {
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("name", .string(name)), ("arguments", arguments),
        ]
        if let result { members.append(("result", .string(result))) }
        if let server { members.append(("server", .string(server))) }
        members += [("failed", .bool(failed)), ("textOffset", .number(Double(textOffset))), ("round", .number(Double(round)))]
        return .object(members)
    }

    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue else { return nil }
        self.init(id: id, name: name, arguments: json["arguments"] ?? .object([]), result: json["result"]?.stringValue,
                  failed: json["failed"]?.boolValue ?? false,
                  textOffset: json["textOffset"]?.intValue ?? 0, round: json["round"]?.intValue ?? 0)
        server = json["server"]?.stringValue
    }

    static func list(fromJSONText text: String?) -> [ToolCall] {
        guard let text, let json = try? JSONParser.parse(text) else { return [] }
        return (json.arrayValue ?? []).compactMap(ToolCall.init(json:))
    }

    static func jsonText(_ calls: [ToolCall]) -> String? {
        calls.isEmpty ? nil : JSONValue.array(calls.map(\.json)).serialized
    }
}
