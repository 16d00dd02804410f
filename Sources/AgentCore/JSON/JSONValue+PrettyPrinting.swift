/// Indented JSON text, for files people read and edit by hand (the MCP server list).
extension JSONValue {
    /// Two spaces per level, members in their order, `"key": value`; empty containers as
    /// `{}` and `[]`. Scalars and keys are written by `serialized`, so escaping is the same.
    public var prettyPrinted: String {
        var output = ""
        writePretty(to: &output, indent: "")
        return output
    }

    private func writePretty(to output: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let elements) where !elements.isEmpty:
            output += "[\n"
            for (position, element) in elements.enumerated() {
                if position > 0 { output += ",\n" }
                output += inner
                element.writePretty(to: &output, indent: inner)
            }
            output += "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            output += "{\n"
            for (position, member) in members.enumerated() {
                if position > 0 { output += ",\n" }
                output += inner + JSONValue.string(member.key).serialized + ": "
                member.value.writePretty(to: &output, indent: inner)
            }
            output += "\n" + indent + "}"
        default:
            output += serialized
        }
    }
}
