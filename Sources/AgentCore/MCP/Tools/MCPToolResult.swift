/// A `tools/call` result as text for the model: tool messages carry text only on every
/// backend, so text blocks are joined, embedded text resources inlined under their URI,
/// and images, audio, binary resources and links become one-line placeholders;
/// `structuredContent` stands in when there is no text. Very long results are cut.
public enum MCPToolResult {
    /// The most text a result gives the model (and the chat keeps).
    public static let maximumCharacters = 100_000

    /// The text, and whether the server marked the result as an error (`isError`).
    public static func text(of result: JSONValue) -> (text: String, isError: Bool) {
        var parts: [String] = []
        for block in result["content"]?.arrayValue ?? [] {
            if let part = describe(block) { parts.append(part) }
        }
        if !parts.contains(where: { !$0.hasPrefix("[") }), let structured = result["structuredContent"] {
            parts.insert(structured.serialized, at: 0)
        }
        var text = parts.joined(separator: "\n")
        if text.isEmpty { text = "(the tool returned nothing)" }
        return (cut(text), result["isError"]?.boolValue == true)
    }

    private static func describe(_ block: JSONValue) -> String? {
        switch block["type"]?.stringValue {
        case "text":
            return block["text"]?.stringValue
        case "image", "audio":
            let kind = block["type"]?.stringValue ?? "data"
            let type = block["mimeType"]?.stringValue ?? "unknown type"
            return "[\(kind) \(type), \(size(ofBase64: block["data"]?.stringValue ?? ""))]"
        case "resource_link":
            let name = block["name"]?.stringValue ?? ""
            return "[link to \(block["uri"]?.stringValue ?? "?")" + (name.isEmpty ? "" : " “\(name)”")
                + (block["mimeType"]?.stringValue.map { ", \($0)" } ?? "") + "]"
        case "resource":
            let resource = block["resource"] ?? .null
            let uri = resource["uri"]?.stringValue ?? "?"
            if let text = resource["text"]?.stringValue { return "[resource \(uri)]\n\(text)" }
            let type = resource["mimeType"]?.stringValue ?? "binary"
            return "[resource \(uri), \(type), \(size(ofBase64: resource["blob"]?.stringValue ?? ""))]"
        default:
            return nil
        }
    }

    private static func size(ofBase64 data: String) -> String {
        ByteCountText.english(data.utf8.count * 3 / 4)
    }

    /// `text` cut to `maximumCharacters`, saying how much was left out.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > maximumCharacters else { return text }
        let kept = text.prefix(maximumCharacters)
        guard kept.endIndex < text.endIndex else { return text }
        let left = text.utf8.count - kept.utf8.count
        return String(kept) + "\n[… \(left) more bytes cut: the result was too long]"
    }
}
