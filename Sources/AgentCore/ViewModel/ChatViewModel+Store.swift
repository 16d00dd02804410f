import FoundationEssentials

/// Keeping the store in step with the conversation on screen: a new chat saved with its
/// first message and settings, messages appended to the branch shown, the chat marked as
/// used, its folders kept.
extension ChatViewModel {
    func ensureChat(firstMessage: ChatMessage) {
        guard let pager, let writer, pager.chat == nil else { return }
        var summary = ChatSummary(title: ChatTitle.make(for: firstMessage), model: connection.modelName,
                                  knowledgeFolders: knowledge.folders.map(\.path), preset: unsavedPreset)
        summary.settings = unsavedSettings
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

    /// Adds `message` at the end of the branch shown (after the last loaded message unless it
    /// names its parent), here and in the store, which shows this branch from now on.
    /// `sibling`: the message it is a new version of.
    func append(_ message: ChatMessage, versionOf sibling: UUID? = nil) {
        var message = message
        if message.parentID == nil, sibling == nil { message.parentID = conversation.messages.last?.id }
        conversation.append(message)
        if let chat, let seq = pager?.assignPlace(to: message.id, versionOf: sibling) {
            writer?.save(message, in: chat.id, seq: seq, showing: true)
        } else {
            pager?.assignPlace(to: message.id, versionOf: sibling)
        }
        notify(.messagesInserted((conversation.count - 1)..<conversation.count))
    }

    /// Shows the chat's newest messages when they are not loaded (the view went far up, or the
    /// chat opened at a search hit), unless a message is being edited; whether it did.
    @discardableResult
    public func showNewest() -> Bool {
        guard pager?.hasLater == true, editingMessageID == nil else { return false }
        focusedMessageID = nil
        showNewestPage()
        return true
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

    /// Takes the messages from `index` on off the screen (another version takes their place);
    /// the store keeps them.
    func removeShown(from index: Int) {
        guard conversation.count > index else { return }
        // Sending an edit of a message no longer shown would not make a version of it.
        if let editing = editingMessageID, let shown = conversation.index(of: editing), shown >= index { cancelEdit() }
        let removed = index..<conversation.count
        conversation.removeLast(removed.count)
        notify(.messagesRemoved(removed))
    }
}
