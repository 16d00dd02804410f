import AgentCore
import Foundation
import Synchronization

/// A turn of a stored chat run from the terminal (`--chat ID|new`): the prompt and the
/// reply are saved as they go (the reply about once a second), so a crash loses at most
/// the last second, and settled by the window's rules (`ReplyLifecycle`).
final class StoredChat: Sendable {
    let chat: ChatSummary
    /// The chat so far and the new message, before a budget picks what goes.
    private let history: [ChatMessage]
    private let lifecycle: ReplyLifecycle
    private let recorder: ReplyRecorder
    private let messages: Mutex<(user: ChatMessage, reply: ChatMessage)>
    /// Whether a save failed, shared with the recorder's failure handler.
    private let saveFailed = SaveFailure()

    private final class SaveFailure: Sendable {
        let happened = Mutex(false)
    }

    struct UnknownChat: Error, LocalizedError {
        let id: String
        var errorDescription: String? { "there is no chat with id \(id) (see --list-chats)" }
    }

    init(_ spec: String, store: ChatStore, user: ChatMessage, model: String, settings: SettingsStore) throws {
        let summary: ChatSummary
        if spec == "new" {
            summary = try store.createChat(ChatSummary(title: ChatTitle.make(for: user), model: model,
                                                       systemPrompt: settings.systemPrompt))
        } else {
            guard let id = UUID(uuidString: spec), let existing = try store.chat(id) else { throw UnknownChat(id: spec) }
            summary = existing
        }
        let leaf = try store.currentLeaf(of: summary.id)
        let history = Conversation(messages: try leaf.map { try store.branch(endingAt: $0).map(\.message) } ?? []).context()
        let userSeq = try store.nextSeq(in: summary.id)
        var user = user
        user.parentID = leaf
        try store.save(user, in: summary.id, seq: userSeq)
        var placeholder = ReplyLifecycle.placeholder(model: model)
        placeholder.parentID = user.id
        try store.save(placeholder, in: summary.id, seq: userSeq + 1)
        try store.setCurrent(summary.id, placeholder.id)
        try store.touchChat(summary.id, model: model)
        messages = Mutex((user, placeholder))
        let failed = saveFailed
        recorder = ReplyRecorder(store: store, chat: summary.id) { error in
            failed.happened.withLock { $0 = true }
            AgentCLI.writeError("agent-cli: could not save the chat: \(ChatError.describe(error))")
        }
        lifecycle = ReplyLifecycle(userSeq: userSeq, replySeq: userSeq + 1, recorder: recorder)
        self.history = history + [user]
        chat = summary
    }

    /// What the request carries: the system prompt and as many recent turns as fit `budget`.
    func context(budget: Int) -> [ChatMessage] {
        ContextWindow.select(history, systemPrompt: chat.systemPrompt, budget: budget)
    }

    /// Whether a save failed (the exit status says so).
    var hadSaveFailure: Bool { saveFailed.happened.withLock { $0 } }

    /// From the transport's thread. (Problems are printed as the turn reports them.)
    func handle(_ event: ChatTurn.Event) {
        messages.withLock { state in
            _ = lifecycle.receive(CollectionOfOne(event), reply: &state.reply, user: &state.user)
        }
    }

    /// Settles both messages and waits until they are saved.
    func finish(_ result: Result<Void, any Error>, interrupted: Bool) {
        let ending: ReplyLifecycle.Ending
        switch result {
        case _ where interrupted: ending = .stopped
        case .success: ending = .completed
        case .failure(let error): ending = .failed(error)
        }
        messages.withLock { state in
            _ = lifecycle.settle(ending, reply: &state.reply, user: &state.user)
        }
        let id = chat.id
        recorder.then { try $0.touchChat(id) }
        recorder.flush()
    }
}
