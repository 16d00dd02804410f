/// White-space trimming without Foundation's NSString machinery (the GUI process links
/// FoundationEssentials only, which keeps Foundation and ICU out of its memory).
extension StringProtocol {
    /// Without leading and trailing white space, newlines included.
    public var trimmed: String {
        trimming { $0.properties.isWhitespace }
    }

    /// Without leading and trailing spaces and tabs (newlines kept).
    public var trimmedSpaces: String {
        trimming { $0 == " " || $0 == "\t" }
    }

    private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }
}
