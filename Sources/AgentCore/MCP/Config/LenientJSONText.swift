/// JSON as people write configuration files: VS Code's `mcp.json` is JSON with comments, and
/// snippets copied from documentation often keep a trailing comma. Comments and trailing
/// commas are blanked out (same byte offsets, so error positions stay true) before the
/// strict parser reads the text; a syntax error is told by line and column.
enum LenientJSONText {
    static func parse(_ text: String) throws(MCPConfigError) -> JSONValue {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20]) }  // a BOM
        blankCommentsAndTrailingCommas(&bytes)
        do {
            return try JSONParser.parse(bytes)
        } catch {
            // TRANSLATORS: %1$s is what is wrong ("unexpected character", in English), %2$s where ("line 3, column 7").
            throw MCPConfigError(tr("This is not JSON: %1$s at %2$s.", error.reason, location(of: error.offset, in: bytes)))
        }
    }

    private static func location(of offset: Int, in bytes: [UInt8]) -> String {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1
        // TRANSLATORS: a place in a text; %1$s and %2$s are numbers.
        return tr("line %1$s, column %2$s", UserLocale.number(line), UserLocale.number(column))
    }

    private static func blankCommentsAndTrailingCommas(_ bytes: inout [UInt8]) {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        var index = 0
        var inString = false
        var lastSignificant: Int?
        func blank(_ position: Int) {
            if bytes[position] != newline { bytes[position] = space }
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                lastSignificant = index
            case slash where next == slash:
                while index < bytes.count, bytes[index] != newline { blank(index); index += 1 }
                continue
            case slash where next == star:
                blank(index)
                blank(index + 1)
                index += 2
                while index < bytes.count, !(bytes[index] == star && index + 1 < bytes.count && bytes[index + 1] == slash) {
                    blank(index)
                    index += 1
                }
                if index < bytes.count {
                    blank(index)
                    blank(index + 1)
                    index += 2
                }
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = lastSignificant, bytes[comma] == UInt8(ascii: ",") { bytes[comma] = space }
                lastSignificant = index
            case space, newline, UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                lastSignificant = index
            }
            index += 1
        }
    }
}
