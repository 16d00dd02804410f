import FoundationEssentials

/// Editing a message the user sent: it goes back into the composer, and sending makes a new
/// version of it; cancelling gives the composer back what it held before.
extension ChatViewModel {
    /// Whether message `id` is the user's and can be edited now: not while a reply is written.
    public func canEdit(_ id: UUID) -> Bool {
        !isSending && conversation.index(of: id).map { conversation[$0].role == .user } == true
    }

    /// Puts a user message back in the entry; sending adds a new version of it.
    public func beginEdit(_ messageID: UUID) {
        guard canEdit(messageID), let index = conversation.index(of: messageID) else { return }
        if editingMessageID == nil { composerBeforeEdit = (draft, files.items) }
        editingMessageID = messageID
        draft = conversation[index].text
        files.replace(with: conversation[index].attachments)
        notify(.composer)
    }

    /// Ends an edit unsent (Escape, another chat): the composer holds what it held before.
    public func cancelEdit() {
        guard editingMessageID != nil else { return }
        editingMessageID = nil
        draft = composerBeforeEdit?.draft ?? ""
        files.replace(with: composerBeforeEdit?.files ?? [])
        composerBeforeEdit = nil
        notify(.composer)
    }
}
