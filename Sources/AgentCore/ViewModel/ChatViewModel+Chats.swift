import FoundationEssentials

/// Moving between chats and within a long one: opening a saved chat (at a search hit),
/// starting a new one, paging earlier and later messages in — `ChatPager` does the work,
/// this keeps the conversation on screen in step and tells the view.
extension ChatViewModel {
    /// Shows a saved chat: its newest page, or the page around `message` (a search hit).
    public func open(_ chatID: UUID, focusing message: UUID? = nil) throws {
        // A chat deleted since it was listed (a search result) opens nothing, and leaves the
        // reply being written alone.
        guard let pager, try pager.canOpen(chatID) else { return }
        abandonReply()
        guard let loaded = try pager.open(chatID, around: message) else { return }
        conversation = Conversation(messages: loaded)
        knowledge.show(pager.chat?.knowledgeFolders ?? [])
        focusedMessageID = message.flatMap { id in loaded.contains { $0.id == id } ? id : nil }
        // A message being edited belongs to the chat left: the draft before it comes back.
        cancelEdit()
        followChosenModel()
        notify(.reloaded)
        notify(.settings)
        notify(.composer)
    }

    /// An empty chat; it is saved with its first message.
    public func startNewChat() {
        abandonReply()
        pager?.startNew()
        unsavedSettings = ChatSettings(systemPrompt: defaultSystemPrompt)
        unsavedPreset = nil
        knowledge.show([])
        conversation = Conversation()
        focusedMessageID = nil
        cancelEdit()
        followChosenModel()
        notify(.reloaded)
        notify(.settings)
        notify(.composer)
    }

    /// Shows and marks a message of the open chat that is loaded already (a search hit in
    /// the chat on screen), leaving a reply that streams alone; false when it is not loaded.
    @discardableResult
    public func focus(on messageID: UUID) -> Bool {
        guard conversation.index(of: messageID) != nil else { return false }
        focusedMessageID = messageID
        notify(.focused)
        return true
    }

    /// Loads the page before the first loaded message (at most `limit` messages); returns
    /// how many came.
    @discardableResult
    public func loadEarlier(limit: Int = ChatPager.pageSize) -> Int {
        guard let pager, pager.hasEarlier, let first = conversation.messages.first else { return 0 }
        let page: [ChatMessage]
        do {
            page = try pager.earlierPage(before: first.id, limit: limit)
        } catch {
            status.report(error)
            return 0
        }
        guard !page.isEmpty else { return 0 }
        conversation.prepend(page)
        notify(.messagesInserted(0..<page.count))
        unloadBeyondLimit(later: true)
        return page.count
    }

    /// Loads the page after the last loaded message (at most `limit` messages: a chat opened
    /// at a search hit, or scrolled far up); returns how many came.
    @discardableResult
    public func loadLater(limit: Int = ChatPager.pageSize) -> Int {
        guard let pager, pager.hasLater, let last = conversation.messages.last else { return 0 }
        let page: [ChatMessage]
        do {
            page = try pager.laterPage(after: last.id, limit: limit)
        } catch {
            status.report(error)
            return 0
        }
        if !page.isEmpty {
            let start = conversation.count
            for message in page { conversation.append(message) }
            notify(.messagesInserted(start..<conversation.count))
            unloadBeyondLimit(later: false)
        }
        notify(.composer)
        return page.count
    }

    /// The most messages of a long chat that stay loaded while the user pages through it:
    /// well under the 200 rows GTK's list view builds around what it shows (past those it
    /// estimates the heights of the rest, and rows of very different heights coming in
    /// move what is on screen).
    public static let maximumLoaded = 120

    /// Lets go of the loaded messages beyond `loadedLimit` at the later end (`later`) or the
    /// earlier one. Not while a reply is written or a message edited: those stay loaded.
    private func unloadBeyondLimit(later: Bool) {
        let excess = conversation.count - loadedLimit
        guard excess > 0, let pager, !isSending, editingMessageID == nil else { return }
        let indices = later ? (conversation.count - excess)..<conversation.count : 0..<excess
        let ids = indices.map { conversation[$0].id }
        if later { conversation.removeLast(excess) } else { conversation.removeFirst(excess) }
        pager.unload(ids, later: later)
        if let focused = focusedMessageID, ids.contains(focused) { focusedMessageID = nil }
        notify(.messagesUnloaded(indices))
    }

    /// Renames the current chat (the chat list does it for others).
    public func chatRenamed(_ summary: ChatSummary) {
        pager?.update(summary)
    }
}
