/// A word as a POSIX shell would need it typed, so a command line shown for consent reads
/// exactly as what runs: plain words stay plain, others go in single quotes, and text with
/// control or invisible formatting characters (a newline, a right-to-left override) is
/// written `$'…'` with those characters escaped, so nothing can hide in the dialog.
enum ShellQuoting {
    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(isPlain) { return word }
        if word.unicodeScalars.contains(where: isHidden) { return escaped(word) }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "_-./:,+=@%".unicodeScalars.contains(scalar)
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func escaped(_ word: String) -> String {
        var output = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\n": output += #"\n"#
            case "\t": output += #"\t"#
            case "\r": output += #"\r"#
            case "'": output += #"\'"#
            case "\\": output += #"\\"#
            case _ where isHidden(scalar):
                let (prefix, digits) = scalar.value < 0x80 ? (#"\x"#, 2) : scalar.value <= 0xFFFF ? (#"\u"#, 4) : (#"\U"#, 8)
                let hex = String(scalar.value, radix: 16)
                output += prefix + String(repeating: "0", count: digits - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "'"
    }
}
