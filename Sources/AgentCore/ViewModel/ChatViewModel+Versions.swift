import FoundationEssentials

/// Versions of a message: the messages with the same parent (an edit, a regenerated reply).
/// Choosing another shows it and the branch below it, as last seen; deleting one (and all
/// that follows it) can be undone until the next start.
extension ChatViewModel {
    /// Where message `id` is among its versions (from 1) and how many there are; nil when it
    /// has no other.
    public func versions(of id: UUID) -> (position: Int, count: Int)? {
        guard let group = pager?.versions(of: id), let index = group.firstIndex(of: id) else { return nil }
        return (index + 1, group.count)
    }

    /// Whether the version `offset` away from message `id` (-1: the one before) can be shown now.
    public func canShowVersion(of id: UUID, offset: Int) -> Bool {
        guard !isSending, let group = pager?.versions(of: id), let index = group.firstIndex(of: id) else { return false }
        return group.indices.contains(index + offset)
    }

    /// Shows the version `offset` away from message `id` and the branch below it.
    public func showVersion(of id: UUID, offset: Int) {
        guard canShowVersion(of: id, offset: offset), let group = pager?.versions(of: id),
              let index = group.firstIndex(of: id) else { return }
        show(version: group[index + offset], replacing: id)
    }

    /// Whether message `id` is one of several versions that one can be deleted of.
    public func canDeleteVersion(_ id: UUID) -> Bool {
        !isSending && (pager?.versions(of: id)?.count ?? 0) > 1
    }

    /// Deletes message `id` and everything that follows it in any branch, and shows a
    /// neighbouring version in its place; `undoDeleteVersion` brings them back.
    public func deleteVersion(_ id: UUID) {
        guard canDeleteVersion(id), let chat, let writer, let pager, let group = pager.versions(of: id),
              let index = group.firstIndex(of: id) else { return }
        let neighbour = index > 0 ? group[index - 1] : group[index + 1]
        guard writer.perform({ try $0.deleteBranch(id, in: chat.id) }) else { return }
        deletedVersion = (id, chat.id)
        show(version: neighbour, replacing: id)
        pager.forget(id, branchEndsAt: nil)
        notify(.composer)
    }

    /// Deletes an undelivered message sent again unchanged as `retry` (not shown any more):
    /// it holds nothing its retry does not. In the store, once the retry is saved.
    func forgetAttempt(_ id: UUID, retriedAs retry: UUID) {
        pager?.forget(id, branchEndsAt: nil)
        if let chat { writer?.replace(id, with: retry, in: chat.id) }
    }

    /// Whether the version deleted last can be brought back: while its chat is open and no
    /// reply has been asked for since (bringing it back shows its branch instead).
    public var canUndoDeleteVersion: Bool {
        deletedVersion.map { $0.chat == chat?.id } == true
    }

    /// Brings back the version deleted last, and shows it.
    public func undoDeleteVersion() {
        guard canUndoDeleteVersion, let deleted = deletedVersion, let writer else { return }
        guard writer.perform({ try $0.restoreBranch(deleted.message, in: deleted.chat) }) else { return }
        deletedVersion = nil
        do {
            try open(deleted.chat, focusing: deleted.message)
        } catch {
            status.report(error)
        }
    }

    /// Shows `version` and its branch after message `parent`, the last one shown.
    func showVersion(_ version: UUID, after parent: UUID) {
        guard let index = conversation.index(of: parent) else { return }
        show(version: version, at: index + 1, under: parent)
    }

    /// Puts `version` and its branch's first page where message `shown` and those after it were.
    private func show(version: UUID, replacing shown: UUID) {
        guard let index = conversation.index(of: shown) else { return }
        show(version: version, at: index, under: conversation[index].parentID)
    }

    private func show(version: UUID, at index: Int, under parent: UUID?) {
        guard let pager else { return }
        let page: [ChatMessage]
        do {
            page = try pager.show(version: version, under: parent)
        } catch {
            status.report(error)
            return
        }
        focusedMessageID = nil
        removeShown(from: index)
        let start = conversation.count
        for message in page { conversation.append(message) }
        notify(.messagesInserted(start..<conversation.count))
        notify(.versionShown(index))
        notify(.composer)
    }
}
