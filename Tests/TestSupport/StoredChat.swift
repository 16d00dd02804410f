import AgentCore

extension ChatStore {
    /// Stores a chat holding `messages` as one branch, each following the one before: the
    /// history a test opens a window or a view model on.
    public func storeChat(_ summary: ChatSummary, messages: [ChatMessage]) throws -> ChatSummary {
        let chat = try createChat(summary)
        try saveAll(ChatMessage.chained(messages), in: chat.id, firstSeq: 0)
        return chat
    }
}
