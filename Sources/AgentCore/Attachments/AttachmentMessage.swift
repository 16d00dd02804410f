/// The user's message with their attached files in it: each file's text fenced (with a
/// fence longer than any run of backticks inside) and labelled with its name. A message
/// that does not fit the context budget is refused before sending — never cut.
public enum AttachmentMessage {
    public static func compose(_ prompt: String, files: [AttachedFile]) -> String {
        var parts = prompt.isEmpty ? [] : [prompt]
        for file in files {
            let fence = String(repeating: "`", count: max(3, longestBacktickRun(in: file.text) + 1))
            let body = file.text.hasSuffix("\n") ? file.text : file.text + "\n"
            parts.append("File: \(file.name)\n\(fence)\n\(body)\(fence)")
        }
        return parts.joined(separator: "\n\n")
    }

    /// Refuses `message` when its estimated tokens exceed `budget`, naming the files and sizes.
    public static func check(_ message: String, files: [AttachedFile], budget: Int) throws(AttachedFile.Refusal) {
        let tokens = ContextWindow.estimatedTokens(ChatMessage(role: .user, text: message, state: .done))
        guard tokens > budget else { return }
        let named = files.map { "“\($0.name)” (\(ByteCountText.describe($0.byteCount)))" }.joined(separator: ", ")
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
