/// A JSON value of any shape, parsed straight from bytes. Chat streams deliver thousands
/// of small JSON objects whose fields are optional or of varying type (tool arguments
/// are arbitrary JSON), which a generic `Decodable` pass handles slowly and rigidly.
/// Objects keep their members' order, so a value re-serializes as it arrived.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member `key` of an object (the last one, if repeated); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The element at `index` of an array; nil otherwise.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A whole number that fits an `Int` (servers send counts and indexes as JSON numbers;
    /// `Int(_:)` on NaN, infinity or 1e300 would trap); nil for anything else.
    public var intValue: Int? {
        guard case .number(let number) = self, number.isFinite, number.rounded(.towardZero) == number,
              abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var isNull: Bool { self == .null }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            // Keyed decoding loses member order; JSON text round-trips through `serialized`.
            let members = try container.decode([String: JSONValue].self)
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members):
            try container.encode(Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }
}
