/// Reading a JSON text without building all of it: an object's members one at a time, the
/// reader choosing for each whether to take its value (`value()`), go into it (`members`,
/// `elements`) or pass over it (a member it does not touch is skipped, checked but not
/// kept). For a payload read once per streamed token, most of which is not wanted. The same
/// grammar and limits as `parse`: what `parse` refuses, this refuses.
extension JSONParser {
    /// A member's name where it lies, compared without making a String of it; a name with
    /// escapes is decoded only when its text is asked for. Holds no reference: a pointer into
    /// the text being read, valid while `body` runs — read it there, never keep it.
    struct Key {
        /// The name with its quotes, escapes as written.
        fileprivate let quoted: UnsafeBufferPointer<UInt8>
        /// The bytes between the quotes.
        fileprivate let name: UnsafeBufferPointer<UInt8>
        fileprivate let hasEscapes: Bool

        fileprivate init(quoted: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) {
            self.quoted = quoted
            name = UnsafeBufferPointer(rebasing: quoted[(quoted.startIndex + 1)..<(quoted.endIndex - 1)])
            self.hasEscapes = hasEscapes
        }

        /// The name as text.
        var text: String {
            guard hasEscapes else { return String(decoding: name, as: UTF8.self) }
            var parser = JSONParser(quoted)
            return (try? parser.parseString()) ?? ""
        }

        @inline(__always)
        func `is`(_ expected: StaticString) -> Bool {
            guard hasEscapes else { return ByteSearch.bytes(name, equal: expected) }
            var decoded = text
            return decoded.withUTF8 { ByteSearch.bytes($0, equal: expected) }
        }
    }

    /// Runs `body` over the JSON text in `bytes`, which must be one value with nothing after
    /// it; a value `body` leaves untouched is still checked.
    static func read<T>(_ bytes: [UInt8], _ body: (inout JSONParser) throws(SyntaxError) -> T) throws(SyntaxError) -> T {
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(SyntaxError) -> T in
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
        return try outcome.get()
    }

    /// The next value is an object.
    var atObject: Bool { current == UInt8(ascii: "{") }

    /// The next value is an array.
    var atArray: Bool { current == UInt8(ascii: "[") }

    /// The next value, built.
    mutating func value() throws(SyntaxError) -> JSONValue {
        try parseValue()
    }

    /// The next value if it is a string, without building a `JSONValue`; nil (the value
    /// passed over) if it is anything else.
    mutating func string() throws(SyntaxError) -> String? {
        guard current == UInt8(ascii: "\"") else {
            try skipValue()
            return nil
        }
        return try parseString()
    }

    /// The next value if it is a number; nil (the value passed over) if it is anything else.
    mutating func number() throws(SyntaxError) -> Double? {
        guard let byte = current, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            try skipValue()
            return nil
        }
        return try parseNumber()
    }

    /// Goes through the object that comes next, calling `body` with each member's name when
    /// its value is next; a value `body` does not read is skipped.
    mutating func members(_ body: (inout JSONParser, Key) throws(SyntaxError) -> Void) throws(SyntaxError) {
        try items(closing: UInt8(ascii: "}")) { parser throws(SyntaxError) in
            guard parser.current == UInt8(ascii: "\"") else { throw parser.error("expected a member name") }
            let key = try parser.readKey()
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: ":") else { throw parser.error("expected ':'") }
            parser.index += 1
            parser.skipWhitespace()
            let start = parser.index
            try body(&parser, key)
            if parser.index == start { try parser.skipValue() }
        }
    }

    /// Goes through the array that comes next, calling `body` with each element's position
    /// when it is next; an element `body` does not read is skipped.
    mutating func elements(_ body: (inout JSONParser, Int) throws(SyntaxError) -> Void) throws(SyntaxError) {
        var position = 0
        try items(closing: UInt8(ascii: "]")) { parser throws(SyntaxError) in
            let start = parser.index
            try body(&parser, position)
            if parser.index == start { try parser.skipValue() }
            position += 1
        }
    }

    /// The object or array that comes next: `item` reads each member or element, the commas
    /// and the closing bracket are checked here.
    private mutating func items(closing: UInt8, _ item: (inout JSONParser) throws(SyntaxError) -> Void) throws(SyntaxError) {
        try enter()
        index += 1
        skipWhitespace()
        if current == closing {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try item(&self)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case closing:
                index += 1
                depth -= 1
                return
            default: throw error(closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
            }
        }
    }

    /// Passes over the next value, checking it as `parse` would, keeping nothing.
    mutating func skipValue() throws(SyntaxError) {
        switch current {
        case UInt8(ascii: "{"): try members { _, _ in }
        case UInt8(ascii: "["): try elements { _, _ in }
        case UInt8(ascii: "\""): try skipString()
        default: _ = try parseValue()  // a number or a literal: nothing to allocate
        }
    }

    private mutating func skipString() throws(SyntaxError) {
        index += 1
        var scratch: [UInt8] = []
        while true {
            skipPlainStringBytes()
            // What stopped the scan: the closing quote, an escape or a control character.
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            guard byte == UInt8(ascii: "\\") else { throw error("control character in a string") }
            index += 1
            try parseEscape(into: &scratch)
            scratch.removeAll(keepingCapacity: true)
        }
    }

    /// A member name, checked as a string is and read where it lies.
    private mutating func readKey() throws(SyntaxError) -> Key {
        let quote = index
        index += 1
        skipPlainStringBytes()
        let hasEscapes = current != UInt8(ascii: "\"")
        if hasEscapes {
            index = quote
            try skipString()
        } else {
            index += 1
        }
        return Key(quoted: UnsafeBufferPointer(rebasing: bytes[quote..<index]), hasEscapes: hasEscapes)
    }
}
