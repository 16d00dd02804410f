/// How much of a very long reply the window shows: a model that rambles for megabytes
/// must not freeze the transcript. The text itself is kept whole (copy, export, storage).
public enum LongText {
    /// The most a message row shows, in UTF-8 bytes.
    public static let displayLimit = 64 * 1024

    /// The start of `text` to show — all of it when it fits — ending at a line break near
    /// the limit when there is one, and never inside a character.
    public static func head(of text: String, limit: Int = displayLimit) -> (text: Substring, isCut: Bool) {
        let utf8 = text.utf8
        guard utf8.count > limit else { return (text[...], false) }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, !isCharacterStart(utf8[end]) { end = utf8.index(before: end) }
        let window = utf8.index(end, offsetBy: -min(4096, utf8.distance(from: utf8.startIndex, to: end)))
        if let newline = utf8[window..<end].lastIndex(of: UInt8(ascii: "\n")) { end = newline }
        return (text[..<end], true)
    }

    /// "10.0 MB", "256 KB": a size for people.
    public static func size(ofBytes count: Int) -> String {
        if count >= 1_000_000 {
            let tenths = Int((Double(count) / 100_000).rounded())
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return "\(max(1, (count + 512) / 1024)) KB"
    }

    private static func isCharacterStart(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }
}
