/// Chooses what a request carries when the conversation is longer than the model's
/// context: the chat's system prompt and the newest turn always; then older messages,
/// newest first, as long as they fit the token budget (tokens estimated from the text).
public enum ContextWindow {
    /// What an image is reckoned to cost: vision models encode one in a few hundred tokens.
    public static let tokensPerImage = 768

    /// A rough token count: about four bytes of UTF-8 per token, plus a few per message,
    /// with attached files' text and images.
    public static func estimatedTokens(_ message: ChatMessage) -> Int {
        let calls = message.toolCalls.reduce(0) { $0 + $1.arguments.serialized.utf8.count + ($1.result?.utf8.count ?? 0) + 16 }
        let files = message.attachments.reduce(0) { $0 + ($1.text.map { $0.utf8.count + 32 } ?? 0) }
        let images = message.attachments.count { $0.kind == .image } * tokensPerImage
        return (message.text.utf8.count + calls + files + 3) / 4 + 4 + images
    }

    public static func select(_ messages: [ChatMessage], systemPrompt: String, budget: Int) -> [ChatMessage] {
        let system = systemPrompt.isEmpty ? [] : [ChatMessage(role: .system, text: systemPrompt, state: .done)]
        guard let lastUser = messages.lastIndex(where: { $0.role == .user }) else { return system + messages }
        var kept = Array(messages[lastUser...])
        var used = (system + kept).reduce(0) { $0 + estimatedTokens($1) }
        var index = lastUser - 1
        while index >= 0 {
            let cost = estimatedTokens(messages[index])
            if used + cost > budget { break }
            used += cost
            kept.insert(messages[index], at: 0)
            index -= 1
        }
        // Start on a user message, never halfway through an exchange.
        while kept.count > 1, kept.first?.role != .user { kept.removeFirst() }
        return system + kept
    }
}
