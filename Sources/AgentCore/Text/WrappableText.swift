/// Text prepared for word-wrapped display: runs of characters with no break opportunity
/// longer than `limit` (URLs, hashes) get zero-width spaces, so a label wrapping at
/// word boundaries — much cheaper to lay out than wrapping anywhere — never grows wider
/// than its column. The stored text is never changed; only what a label shows.
public enum WrappableText {
    public static let zeroWidthSpace: Character = "\u{200B}"

    public static func make(_ text: String, limit: Int = 32) -> String {
        var run = 0
        var needsBreaks = false
        for character in text.unicodeScalars {
            run = character.properties.isWhitespace ? 0 : run + 1
            if run > limit {
                needsBreaks = true
                break
            }
        }
        guard needsBreaks else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + text.utf8.count / limit)
        run = 0
        for character in text {
            if character.isWhitespace {
                run = 0
            } else {
                run += 1
                if run > limit {
                    result.append(zeroWidthSpace)
                    run = 1
                }
            }
            result.append(character)
        }
        return result
    }
}
