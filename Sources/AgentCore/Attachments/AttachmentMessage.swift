/// A user's message with the text of their attached files in it: each file's text fenced
/// (with a fence longer than any run of backticks inside) and labelled with its name. A
/// message that does not fit the context budget is refused before sending — never cut.
public enum AttachmentMessage {
    public static func compose(_ prompt: String, files: [AttachedFile]) -> String {
        var parts = prompt.isEmpty ? [] : [prompt]
        for file in files {
            guard let text = file.text else { continue }
            let fence = String(repeating: "`", count: max(3, longestBacktickRun(in: text) + 1))
            let body = text.hasSuffix("\n") ? text : text + "\n"
            parts.append("File: \(file.name)\n\(fence)\n\(body)\(fence)")
        }
        return parts.joined(separator: "\n\n")
    }

    /// Refuses `message` when its estimated tokens, files included, exceed `budget`, naming
    /// the files and their sizes.
    public static func check(_ message: ChatMessage, budget: Int) throws(AttachedFile.Refusal) {
        let tokens = ContextWindow.estimatedTokens(message)
        guard tokens > budget else { return }
        let named = message.attachments.map { "“\($0.name)” (\(ByteCountText.describe($0.byteCount)))" }.joined(separator: ", ")
        throw AttachedFile.Refusal(description: "the message with \(named) is about \(tokens) tokens, more than the context budget "
            + "of \(budget) tokens; nothing was cut or sent")
    }

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0, current = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "`") {
                current += 1
                longest = max(longest, current)
            } else {
                current = 0
            }
        }
        return longest
    }
}
