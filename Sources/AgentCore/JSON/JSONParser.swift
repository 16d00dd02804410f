/// A strict RFC 8259 JSON parser over bytes. Invalid UTF-8 inside strings becomes U+FFFD
/// (a stream's bytes are not trusted to be valid); everything else that is not JSON is
/// an error with its byte offset. Nesting deeper than `maximumDepth` is refused.
public struct JSONParser {
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        /// Where the text goes wrong: its length when it ends before its value does (cut short).
        public let offset: Int
        public let reason: String
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    public static let maximumDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes.bindMemory(to: UInt8.self))
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected data after the value") }
        return value
    }

    public static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        var copy = text
        let result = copy.withUTF8 { buffer in
            Result { () throws(SyntaxError) -> JSONValue in try parse(UnsafeRawBufferPointer(buffer)) }
        }
        return try result.get()
    }

    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SyntaxError) -> JSONValue in try parse(buffer) }
        }
        return try result.get()
    }

    func error(_ reason: String) -> SyntaxError {
        SyntaxError(offset: index, reason: reason)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    /// Reads `literal`; input that ends inside it ends at the end, as any text cut short does.
    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let available = min(count, bytes.count - index)
        for offset in 0..<available where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal")
        }
        guard available == count else { throw SyntaxError(offset: bytes.count, reason: "unexpected end of input") }
        index += count
    }

    mutating func enter() throws(SyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting too deep") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        // Room for a streamed chunk's members at once, instead of growing four times.
        members.reserveCapacity(8)
        try self.members { parser, key throws(SyntaxError) in members.append((key.text, try parser.parseValue())) }
        return .object(members)
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        var values: [JSONValue] = []
        try elements { parser, _ throws(SyntaxError) in values.append(try parser.parseValue()) }
        return .array(values)
    }

    mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { throw error("expected a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        // Most numbers in a stream are small integers (a time, an index, a count): read
        // them digit by digit, exactly, without a detour through text and strtod.
        if index - start <= 15, current != UInt8(ascii: "."), current != UInt8(ascii: "e"), current != UInt8(ascii: "E") {
            var magnitude = 0
            for position in start..<index where bytes[position] != UInt8(ascii: "-") {
                magnitude = magnitude * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            }
            return bytes[start] == UInt8(ascii: "-") ? -Double(magnitude) : Double(magnitude)
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw error("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw error("expected an exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text) else { throw error("number out of range") }
        return number
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    mutating func parseString() throws(SyntaxError) -> String {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escapes.
        skipPlainStringBytes()
        if current == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw error("control character in a string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    /// Moves past the bytes a string holds as they are: to its closing quote, an escape, a
    /// control character (an error) or the end. Most of a JSON text's bytes are these.
    @inline(__always)
    mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        var position = index
        let end = bytes.count
        while position < end {
            let byte = base[position]
            // Most bytes are lower-case letters, above all three: one comparison for them.
            if byte <= UInt8(ascii: "\\"), byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        index = position
    }

    mutating func parseEscape(into buffer: inout [UInt8]) throws(SyntaxError) {
        guard let escape = current else { throw error("unterminated escape") }
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate needs its low half: \uD83D\uDE00.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let save = index
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                        scalar = 0xFFFD
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                scalar = 0xFFFD
            }
            let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            buffer.append(contentsOf: String(character).utf8)
        default:
            throw error("invalid escape")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("short \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
