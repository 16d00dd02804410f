import FoundationEssentials

/// A chat's automatic title: the first line of its first prompt, cut at a word near 48
/// characters.
public enum ChatTitle {
    public static let untitled = "New Chat"

    public static func make(from prompt: String) -> String {
        let line = prompt.split(whereSeparator: \.isNewline).first.map(String.init) ?? prompt
        let trimmed = line.trimmedSpaces
        guard trimmed.count > 48 else { return trimmed.isEmpty ? untitled : trimmed }
        let cut = trimmed.prefix(48)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord.trimmedSpaces + "…"
    }
}
