/// Sources and folder lists as they are stored and exported: JSON arrays.
extension KnowledgeSource {
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("path", .string(path))]
        if let page { members.append(("page", .number(Double(page)))) }
        return .object(members)
    }

    init?(json: JSONValue) {
        guard let path = json["path"]?.stringValue else { return nil }
        self.init(path: path, page: json["page"]?.intValue)
    }

    static func list(fromJSONText text: String?) -> [KnowledgeSource] {
        guard let text, let json = try? JSONParser.parse(text) else { return [] }
        return (json.arrayValue ?? []).compactMap(KnowledgeSource.init(json:))
    }

    static func jsonText(_ sources: [KnowledgeSource]) -> String? {
        sources.isEmpty ? nil : JSONValue.array(sources.map(\.json)).serialized
    }
}

/// A chat's knowledge folders as stored: a JSON array of paths (nil when there are none).
enum KnowledgeFolderList {
    static func jsonText(_ folders: [String]) -> String? {
        folders.isEmpty ? nil : JSONValue.array(folders.map(JSONValue.string)).serialized
    }

    static func folders(fromJSONText text: String?) -> [String] {
        guard let text, let json = try? JSONParser.parse(text) else { return [] }
        return (json.arrayValue ?? []).compactMap(\.stringValue)
    }
}
