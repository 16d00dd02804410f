/// Text from a file's bytes, as people's files come: UTF-8 (with or without a byte-order
/// mark), UTF-16 with a byte-order mark, and otherwise Latin-1 — the last encoding of old
/// logs and config files, which any byte sequence is. Bytes that no text file holds (NUL,
/// most control characters) mean the file is not text: nil.
public enum TextDecoding {
    public static func decode(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return String(validating: bytes.dropFirst(3), as: UTF8.self)
        }
        if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), littleEndian: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), littleEndian: false) }
        guard !looksBinary(bytes) else { return nil }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        let text = String(decoding: units, as: UTF16.self)
        return text.unicodeScalars.contains("\u{FFFD}") || looksBinary(Array(text.utf8)) ? nil : text
    }

    /// NUL, or more than one byte in a hundred a control character other than tab, line
    /// feed, form feed, carriage return and escape (colored logs).
    private static func looksBinary(_ bytes: [UInt8]) -> Bool {
        var controls = 0
        for byte in bytes {
            if byte == 0 { return true }
            if byte < 0x20, ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(byte) { controls += 1 }
        }
        return controls * 100 > bytes.count
    }
}
