/// The question as the model receives it when passages from the chat's folders go with it:
/// the passages first, numbered and labelled with their source, then the question. Only the
/// request carries them; the chat keeps the question as written.
public enum KnowledgePrompt {
    public static func compose(_ question: ChatMessage, passages: [KnowledgePassage]) -> ChatMessage {
        guard !passages.isEmpty else { return question }
        var message = question
        let quoted = passages.enumerated().map { "[\($0.offset + 1)] \($0.element.source.reference)\n\($0.element.text)" }
        message.text = "Passages from the user's files that may help (say which you use):\n\n"
            + quoted.joined(separator: "\n\n") + "\n\nQuestion: " + question.text
        return message
    }

    /// The token budget passages may take: `share` percent (5 to 90) of `contextBudget`.
    public static func budget(contextBudget: Int, share: Int) -> Int {
        contextBudget * min(90, max(5, share)) / 100
    }

    /// What `passages` cost a request, in estimated tokens (as the index counts them).
    static func tokens(of passages: [KnowledgePassage]) -> Int {
        passages.reduce(0) { $0 + KnowledgeIndex.estimatedTokens($1.text) }
    }
}
