import FoundationEssentials

/// Keeping the store in step with the conversation on screen: a new chat saved with its
/// first message, messages appended and removed, the chat marked as used, its folders kept.
extension ChatViewModel {
    func ensureChat(firstMessage: ChatMessage) {
        guard let pager, let writer, pager.chat == nil else { return }
        let summary = ChatSummary(title: ChatTitle.make(for: firstMessage), model: connection.modelName,
                                  systemPrompt: defaultSystemPrompt, knowledgeFolders: knowledge.folders.map(\.path),
                                  chosenModel: unsavedChoice)
        guard writer.create(summary) else { return }
        pager.created(summary)
        onChatSaved?(summary)
    }

    /// Keeps the chat's folders with it (a new chat keeps them from its first message on).
    func keepFolders(_ folders: [URL]) {
        guard var summary = chat, let store else { return }
        summary.knowledgeFolders = folders.map(\.path)
        do {
            try store.setKnowledgeFolders(summary.id, summary.knowledgeFolders)
            pager?.update(summary)
        } catch {
            status.report(error)
        }
    }

    /// Marks the chat as just used.
    func touchChat() {
        guard var summary = chat else { return }
        summary.updated = Date()
        summary.model = connection.modelName
        pager?.update(summary)
        writer?.touch(summary)
        onChatSaved?(summary)
    }

    func append(_ message: ChatMessage) {
        conversation.append(message)
        if let chat, let seq = pager?.assignPlace(to: message.id) { writer?.save(message, in: chat.id, seq: seq) }
        notify(.messageInserted(conversation.count - 1))
    }

    /// The chat was opened in its middle: its newest page replaces what is shown before a
    /// message is added at its end.
    func showNewestPage() {
        guard let pager else { return }
        do {
            conversation = Conversation(messages: try pager.newestPage())
        } catch {
            status.report(error)
            return
        }
        notify(.reloaded)
    }

    /// Removes the messages from `index` on, here and in the store; false (nothing removed,
    /// the failure reported) when the store refused.
    func truncate(from index: Int) -> Bool {
        guard index < conversation.count else { return true }
        if let pager, let chat, let seq = pager.place(of: conversation[index].id) {
            guard writer?.deleteMessages(in: chat.id, from: seq) ?? true else { return false }
            pager.truncated(from: seq, removing: conversation.messages[index...].map(\.id))
        }
        while conversation.count > index {
            let last = conversation.count - 1
            conversation.remove(at: last)
            notify(.messageRemoved(last))
        }
        return true
    }
}
