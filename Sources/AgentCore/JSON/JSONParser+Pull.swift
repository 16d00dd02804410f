/// Reading a JSON text without building all of it: an object's members one at a time, the
/// reader choosing for each whether to take its value (`value()`), go into it (`members`,
/// `elements`) or pass over it (a member it does not touch is skipped, checked but not
/// kept). For a payload read once per streamed token, most of which is not wanted. The same
/// grammar and limits as `parse`: what `parse` refuses, this refuses.
extension JSONParser {
    /// A member's name, compared without making a String of it unless it has escapes.
    struct Key {
        fileprivate let raw: UnsafeBufferPointer<UInt8>?
        fileprivate let decoded: String?

        func `is`(_ name: StaticString) -> Bool {
            if let raw { return ByteSearch.bytes(raw, equal: name) }
            guard var decoded else { return false }
            return decoded.withUTF8 { ByteSearch.bytes($0, equal: name) }
        }
    }

    /// Runs `body` over the JSON text in `bytes`, which must be one value with nothing after
    /// it; a value `body` leaves untouched is still checked.
    static func read<T>(_ bytes: [UInt8], _ body: (inout JSONParser) throws -> T) throws -> T {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.skipWhitespace()
            let start = parser.index
            let result = try body(&parser)
            if parser.index == start { try parser.skipValue() }
            parser.skipWhitespace()
            guard parser.index == parser.bytes.count else { throw parser.error("unexpected data after the value") }
            return result
        }
    }

    /// The next value is an object.
    var atObject: Bool { current == UInt8(ascii: "{") }

    /// The next value is an array.
    var atArray: Bool { current == UInt8(ascii: "[") }

    /// The next value, built.
    mutating func value() throws -> JSONValue {
        try parseValue()
    }

    /// Goes through the object that comes next, calling `body` with each member's name when
    /// its value is next; a value `body` does not read is skipped.
    mutating func members(_ body: (inout JSONParser, Key) throws -> Void) throws {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try readKey()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let start = index
            try body(&self, key)
            if index == start { try skipValue() }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default: throw error("expected ',' or '}'")
            }
        }
    }

    /// Goes through the array that comes next, calling `body` with each element's position
    /// when it is next; an element `body` does not read is skipped.
    mutating func elements(_ body: (inout JSONParser, Int) throws -> Void) throws {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        var position = 0
        while true {
            skipWhitespace()
            let start = index
            try body(&self, position)
            if index == start { try skipValue() }
            position += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw error("expected ',' or ']'")
            }
        }
    }

    /// Passes over the next value, checking it as `parse` would, keeping nothing.
    mutating func skipValue() throws {
        switch current {
        case UInt8(ascii: "{"): try members { _, _ in }
        case UInt8(ascii: "["): try elements { _, _ in }
        case UInt8(ascii: "\""): try skipString()
        default: _ = try parseValue()  // a number or a literal: nothing to allocate
        }
    }

    private mutating func skipString() throws {
        index += 1
        var scratch: [UInt8] = []
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &scratch)
                scratch.removeAll(keepingCapacity: true)
            case 0..<0x20:
                throw error("control character in a string")
            default:
                index += 1
            }
        }
        throw error("unterminated string")
    }

    /// A member name: its bytes where it lies when it has no escapes, else decoded.
    private mutating func readKey() throws -> Key {
        let quote = index
        index += 1
        while let byte = current, byte != UInt8(ascii: "\"") {
            if byte == UInt8(ascii: "\\") || byte < 0x20 {
                index = quote
                return Key(raw: nil, decoded: try parseString())
            }
            index += 1
        }
        guard current != nil else { throw error("unterminated string") }
        let key = Key(raw: UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<index]), decoded: nil)
        index += 1
        return key
    }
}
