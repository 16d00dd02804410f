import AgentCore
import Foundation

/// Where a stored chat's turn goes in its tree: after the last message of the branch shown, as
/// a new version of one of the user's messages (`--edit`), or as a new version of the last
/// reply, answered to the same question (`--regenerate`). The turn's branch becomes the one shown.
enum CLIBranches {
    /// The question a turn answers and what goes before it.
    struct Point: Sendable {
        /// The messages before the question on its branch, as a request carries them (those that
        /// never reached the model, and empty replies, left out).
        let history: [ChatMessage]
        /// The question, its parent set; a new one "sending".
        let question: ChatMessage
        /// Whether the question is stored already (`--regenerate`); else it is new, to be saved.
        let isStored: Bool
        /// The undelivered message the question is sent again in place of, unchanged: to be
        /// deleted once the question is saved.
        var retried: UUID?
    }

    /// Why a message cannot be edited or a reply regenerated.
    struct Refusal: Error, LocalizedError {
        let message: String
        var errorDescription: String? { message }
    }

    /// `message` after the last message of the branch `chat` shows, or in its place when it
    /// never reached the model: as a new version of it, or, sent again unchanged, replacing
    /// it (`Point.retried`); nil `chat`: a new chat's first.
    static func append(_ message: ChatMessage, to chat: UUID?, store: ChatStore) throws -> Point {
        guard let chat, let leaf = try store.currentLeaf(of: chat) else { return Point(history: [], question: message, isStored: false) }
        var branch = try store.branch(endingAt: leaf).map(\.message)
        var retried: UUID?
        if let last = branch.last, last.isUndelivered {
            if last.isRetried(by: message) { retried = last.id }
            branch.removeLast()
        }
        var question = message
        question.parentID = branch.last?.id
        return Point(history: Conversation(messages: branch).context(), question: question, isStored: false, retried: retried)
    }

    /// A new version of user message `id` of `chat`, with the same parent: `text`, and the files
    /// the message had (as the window's edit keeps them) followed by `files`.
    static func edit(_ id: UUID, text: String, files: [AttachedFile], in chat: UUID, store: ChatStore) throws -> Point {
        guard let found = try store.message(id) else {
            // TRANSLATORS: %1$s is a message's id, %2$s a chat's id.
            throw Refusal(message: tr("there is no message with id %1$s (--export %2$s --format json shows them)", id.uuidString, chat.uuidString))
        }
        // TRANSLATORS: %1$s is a message's id, %2$s a chat's id.
        guard found.chat == chat else { throw Refusal(message: tr("message %1$s is not in chat %2$s", id.uuidString, chat.uuidString)) }
        let original = found.stored.message
        guard original.role == .user else {
            // TRANSLATORS: %s is a message's id.
            throw Refusal(message: tr("message %s is not one of yours: only a user message can be edited (--regenerate asks for a reply again)", id.uuidString))
        }
        let question = ChatMessage(parentID: original.parentID, role: .user, text: text, state: .sending,
                                   attachments: original.attachments + files)
        let history = try original.parentID.map { try context(endingAt: $0, store: store) } ?? []
        return Point(history: history, question: question, isStored: false)
    }

    /// The question of the last reply on the branch `chat` shows, to be answered again.
    static func regenerate(in chat: UUID, store: ChatStore) throws -> Point {
        guard let leaf = try store.currentLeaf(of: chat) else {
            // TRANSLATORS: %s is a chat's id.
            throw Refusal(message: tr("chat %s has no reply to regenerate", chat.uuidString))
        }
        let branch = try store.branch(endingAt: leaf)
        guard branch.count >= 2, let reply = branch.last?.message, reply.role == .assistant else {
            throw Refusal(message: tr("chat %s has no reply to regenerate: its last message is not a reply", chat.uuidString))
        }
        let asked = branch[branch.count - 2].message
        guard asked.role == .user, reply.parentID == asked.id else {
            throw Refusal(message: tr("chat %s has no reply to regenerate: its last reply answers no message of yours", chat.uuidString))
        }
        let history = Conversation(messages: branch.dropLast(2).map(\.message)).context()
        return Point(history: history, question: asked, isStored: true)
    }

    private static func context(endingAt last: UUID, store: ChatStore) throws -> [ChatMessage] {
        Conversation(messages: try store.branch(endingAt: last).map(\.message)).context()
    }
}
