/// Checks JSON values against the part of JSON Schema that tool definitions use: `type`
/// (one or several), `properties`, `required`, `additionalProperties: false`, `enum`,
/// `items`, `minimum`/`maximum`, `minLength`/`maxLength`. Models send arguments of any
/// shape; a tool only ever sees arguments that passed.
public enum JSONSchemaValidator {
    /// The problems found, each naming where (`$.unit`); empty when the value is valid.
    public static func problems(in value: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object = schema else { return [] }
        var problems: [String] = []
        if let types = allowedTypes(schema), !types.contains(where: { matches(value, type: $0) }) {
            problems.append("\(path) must be \(types.joined(separator: " or ")), not \(typeName(of: value))")
            return problems
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            problems.append("\(path) must be one of \(options.map(\.serialized).joined(separator: ", "))")
        }
        switch value {
        case .object(let members):
            let properties = schema["properties"]?.objectValue ?? []
            for required in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            where !members.contains(where: { $0.key == required }) {
                problems.append("\(path).\(required) is required")
            }
            for member in members {
                if let propertySchema = properties.last(where: { $0.key == member.key })?.value {
                    problems += self.problems(in: member.value, against: propertySchema, at: "\(path).\(member.key)")
                } else if schema["additionalProperties"] == .bool(false) {
                    problems.append("\(path).\(member.key) is not an accepted argument")
                }
            }
        case .array(let elements):
            if let itemSchema = schema["items"] {
                for (index, element) in elements.enumerated() {
                    problems += self.problems(in: element, against: itemSchema, at: "\(path)[\(index)]")
                }
            }
        case .number(let number):
            if let minimum = schema["minimum"]?.numberValue, number < minimum { problems.append("\(path) must be ≥ \(minimum)") }
            if let maximum = schema["maximum"]?.numberValue, number > maximum { problems.append("\(path) must be ≤ \(maximum)") }
        case .string(let text):
            if let minimum = characterCount(schema["minLength"], rounded: .up), text.count < minimum {
                problems.append("\(path) must have at least \(minimum) characters")
            }
            if let maximum = characterCount(schema["maxLength"], rounded: .down), text.count > maximum {
                problems.append("\(path) must have at most \(maximum) characters")
            }
        case .null, .bool:
            break
        }
        return problems
    }

    /// A `minLength` or `maxLength` as a whole count, `rounded` towards the lengths it admits;
    /// nil, the keyword ignored, when it is no count (negative, NaN, not a number). The schema
    /// comes from outside (an MCP server's tool), so a bound past `Int.max` (`1e19`) is held
    /// at `Int.max` rather than converted, which would trap.
    private static func characterCount(_ bound: JSONValue?, rounded rule: FloatingPointRoundingRule) -> Int? {
        guard let bound = bound?.numberValue, bound >= 0 else { return nil }
        let whole = bound.rounded(rule)
        return whole < Double(Int.max) ? Int(whole) : .max
    }

    private static func allowedTypes(_ schema: JSONValue) -> [String]? {
        if let single = schema["type"]?.stringValue { return [single] }
        return schema["type"]?.arrayValue?.compactMap(\.stringValue)
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
             ("number", .number): true
        case ("integer", .number(let number)): number == number.rounded() && number.isFinite
        default: false
        }
    }

    private static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
