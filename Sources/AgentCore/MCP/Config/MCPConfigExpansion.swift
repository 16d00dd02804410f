/// `${VAR}`, `${env:VAR}` (Cursor) and `${VAR:-default}` (Claude Code) in configuration text,
/// so a file can name a secret or a path without holding it. An unset variable becomes empty
/// text, as in a shell; `:-` also replaces an empty one. Anything else in `${…}` —
/// VS Code's `${input:id}`, say — is not a variable here and stays as written.
enum MCPConfigExpansion {
    static func expand(_ text: String, environment: [String: String]) -> String {
        guard text.contains("${") else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("${"), let close = text[index...].firstIndex(of: "}"),
               let value = substitution(for: text[text.index(index, offsetBy: 2)..<close], environment: environment) {
                output += value
                index = text.index(after: close)
            } else {
                output.append(text[index])
                index = text.index(after: index)
            }
        }
        return output
    }

    /// The value for the text between `${` and `}`; nil when it is not a variable reference.
    private static func substitution(for reference: Substring, environment: [String: String]) -> String? {
        var name = reference.hasPrefix("env:") ? reference.dropFirst(4) : reference
        var fallback: Substring?
        if let marker = name.firstRange(of: ":-") {
            fallback = name[marker.upperBound...]
            name = name[..<marker.lowerBound]
        }
        guard isVariableName(name) else { return nil }
        let value = environment[String(name)]
        if let fallback, value?.isEmpty ?? true { return String(fallback) }
        return value ?? ""
    }

    private static func isVariableName(_ name: Substring) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || isASCIILetter($0) || ("0"..."9").contains($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
