import FoundationEssentials

/// What a request carries: the context budget, the chat's recent turns that fit it, and
/// passages from the chat's folders.
extension ChatViewModel {
    /// The budget requests carry now: the local model's from its server once it is up,
    /// else the user's.
    public var requestBudget: Int { connection.contextBudget(default: contextBudget, settings: settings) }

    /// The messages a request carries: the chat's system prompt, then as many recent turns of
    /// the branch shown as fit the budget — reaching into the store when the loaded page is short.
    /// With `passages` from the chat's folders before the question, in a budget less what
    /// they take.
    func requestContext(through userIndex: Int, passages: [KnowledgePassage]) -> [ChatMessage] {
        let budget = requestBudget - KnowledgePrompt.tokens(of: passages)
        var messages = conversation.context(through: userIndex)
        if let pager, let first = conversation.messages.first,
           messages.reduce(0, { $0 + ContextWindow.estimatedTokens($1) }) < budget {
            do {
                messages = Conversation(messages: try pager.stored(before: first.id, limit: 400)).context() + messages
            } catch {
                // TRANSLATORS: %s is the reason.
                status.report(tr("Could not read the chat's earlier messages; this request carries only the recent ones: %s",
                                 ChatError.describe(error)), heading: ChatStatus.storageHeading)
            }
        }
        var context = ContextWindow.select(messages, systemPrompt: settings.systemPrompt, budget: budget)
        if let question = context.last, question.role == .user {
            context[context.count - 1] = KnowledgePrompt.compose(question, passages: passages)
        }
        return context
    }

    /// The best passages from the chat's folders for `question`, their sources recorded on
    /// the reply in flight — unless the reply was given up meanwhile (another chat opened).
    func knowledgePassages(for question: ChatMessage) async -> [KnowledgePassage] {
        guard !knowledge.folders.isEmpty else { return [] }
        let generation = generation
        let budget = KnowledgePrompt.budget(contextBudget: requestBudget, share: knowledgeShare)
        let passages = await knowledge.passages(for: question.text, tokenBudget: budget)
        guard generation == self.generation, !passages.isEmpty, let replyID = replyInFlightID,
              let replyIndex = conversation.index(of: replyID) else { return [] }
        conversation[replyIndex].sources = KnowledgeSource.unique(in: passages)
        notify(.messageChanged(replyIndex))
        return passages
    }
}
