import FoundationEssentials

/// A server's error report: `{"error": "text"}`, `{"error": {"message": …}}`,
/// `{"message": …}` or `{"detail": …}`, whichever the server speaks.
enum ServerErrorBody {
    static func message(in json: JSONValue) -> String? {
        if let text = json.stringValue { return text }
        if let nested = json["error"], let message = message(in: nested) { return message }
        for key in ["message", "detail", "type"] {
            if let text = json[key]?.stringValue { return text }
        }
        // TRANSLATORS: a server's error that has only a code, a number or a name: "error 42",
        // "error context_length_exceeded".
        if let code = json["code"]?.intValue.map(String.init) ?? json["code"]?.stringValue { return tr("error %s", code) }
        return nil
    }

    /// The server's own message in an error response body, else the body's text.
    static func message(inBody body: Data) -> String {
        if let json = try? JSONParser.parse([UInt8](body)), let message = message(in: json) {
            return message
        }
        return String(decoding: body.prefix(4096), as: UTF8.self).trimmed
    }
}
