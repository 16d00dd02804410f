extension ChatViewModel {
    /// What changed, so a view updates only that part.
    public enum Change: Equatable, Sendable {
        /// Messages at these indices came, in one go (an earlier or later page, a branch).
        case messagesInserted(Range<Int>)
        case messageChanged(Int)
        /// Messages at these indices went, in one go (a reply that came to nothing, the
        /// branch below another version, the far end of a long chat's loaded window).
        case messagesRemoved(Range<Int>)
        /// Messages at these indices left the loaded part of a long chat, at the end away from
        /// where the user is reading (still stored: paging brings them back).
        case messagesUnloaded(Range<Int>)
        /// The whole conversation was replaced (another chat opened, the newest page loaded).
        case reloaded
        /// Draft, sending state, editing state or whether Send is possible.
        case composer
        /// The files attached in the composer, or how many are still being read.
        case files
        /// The chat's knowledge folders, or how far their indexing has come.
        case knowledge
        /// The chat's settings (or the preset it started from).
        case settings
        /// The error message or whether to show it.
        case error
        /// The model, or what the connection is doing.
        case status
        /// A tool asks for the user's consent (see `status.consent`).
        case consentRequested
        /// The question was answered (by the user, or by Stop or another chat denying it).
        case consentSettled
        /// Another message is to be shown and marked (`focusedMessageID`), in the same chat.
        case focused
        /// Another version of the message at this index is shown, with the branch below it.
        case versionShown(Int)
        /// A reply came to its end (done, or cut off), e.g. for a notification.
        case replyFinished(Int)
        /// A reply under way was stopped, kept as far as it came, because another chat was
        /// opened or a new one started; the title of the chat it is in.
        case replyLeft(chatTitle: String)
    }
}

extension ChatViewModel {
    /// Whether the messages that came at `indices` end with one the user just sent, not a page
    /// of stored ones loaded: the view follows its reply and the keyboard stays in the entry.
    public func isJustSent(_ indices: Range<Int>) -> Bool {
        guard indices.upperBound == conversation.count, let last = conversation.messages.last else { return false }
        return last.role == .user && last.state == .sending
    }
}
