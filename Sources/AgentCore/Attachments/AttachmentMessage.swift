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
    /// the files and their sizes when it has any.
    public static func check(_ message: ChatMessage, budget: Int) throws(AttachedFile.Refusal) {
        let tokens = ContextWindow.estimatedTokens(message)
        guard tokens > budget else { return }
        guard !message.attachments.isEmpty else {
            // TRANSLATORS: %1$s and %2$s are numbers of tokens.
            throw AttachedFile.Refusal(description: tr("the message is about %1$s tokens, more than the context budget of %2$s tokens; nothing was cut or sent",
                                                       UserLocale.number(tokens), UserLocale.number(budget)))
        }
        let named = message.attachments.map { "“\($0.name)” (\(ByteCountText.describe($0.byteCount)))" }.joined(separator: ", ")
        // TRANSLATORS: %1$s names the attached files with their sizes, %2$s and %3$s are numbers of tokens.
        throw AttachedFile.Refusal(description: tr("the message with %1$s is about %2$s tokens, more than the context budget of %3$s tokens; nothing was cut or sent",
                                                   named, UserLocale.number(tokens), UserLocale.number(budget)))
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
