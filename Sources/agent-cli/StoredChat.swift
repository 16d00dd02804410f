import AgentCore
import Foundation
import Synchronization

/// A turn of a stored chat run from the terminal (`--chat ID|new`): the question and the
/// reply are saved as they go (the reply about once a second), so a crash loses at most
/// the last second, and settled by the window's rules (`ReplyLifecycle`).
final class StoredChat: Sendable {
    let chat: ChatSummary
    /// The branch up to the question, and the question, before a budget picks what goes.
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
        var errorDescription: String? { tr("there is no chat with id %s (see --list-chats)", id) }
    }

    /// Saves the turn's question (unless it is stored already) and an empty reply below it, and
    /// makes their branch the one the chat shows; creates the chat for `--chat new`, and keeps
    /// the settings `setup` changed.
    init(_ setup: CLIChatSetup, store: ChatStore, at point: CLIBranches.Point, model: String) throws {
        var summary: ChatSummary
        if let existing = setup.existing {
            summary = existing
            if setup.changesSettings { try store.setSettings(existing.id, setup.kept) }
            summary.settings = setup.kept
        } else {
            summary = ChatSummary(title: ChatTitle.make(for: point.question), model: model, preset: setup.preset?.name)
            summary.settings = setup.kept
            try store.createChat(summary)
            if let preset = setup.preset { try store.markPresetUsed(preset.id) }
        }
        let user = point.question
        // A question asked again (`--regenerate`) was delivered before: it stays as it is stored,
        // whatever becomes of the new reply.
        var userSeq: Int?
        if !point.isStored {
            let seq = try store.nextSeq(in: summary.id)
            try store.save(user, in: summary.id, seq: seq)
            userSeq = seq
        }
        if let retried = point.retried { try store.deleteBranch(retried, in: summary.id) }
        let replySeq = try store.nextSeq(in: summary.id)
        var placeholder = ReplyLifecycle.placeholder(model: model)
        placeholder.parentID = user.id
        try store.save(placeholder, in: summary.id, seq: replySeq)
        if let parent = user.parentID { try store.choose(version: user.id, under: parent) }
        try store.choose(version: placeholder.id, under: user.id)
        try store.setCurrent(summary.id, placeholder.id)
        try store.touchChat(summary.id, model: model)
        messages = Mutex((user, placeholder))
        let failed = saveFailed
        recorder = ReplyRecorder(store: store, chat: summary.id) { error in
            failed.happened.withLock { $0 = true }
            // TRANSLATORS: %s is the reason.
            AgentCLI.writeError("agent-cli: " + tr("could not save the chat: %s", ChatError.describe(error)))
        }
        lifecycle = ReplyLifecycle(userSeq: userSeq, replySeq: replySeq, recorder: recorder)
        history = point.history + [user]
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
        let (settlement, userID) = messages.withLock { state in
            (lifecycle.settle(ending, reply: &state.reply, user: &state.user), state.user.id)
        }
        let id = chat.id
        // A reply that came to nothing is gone: the branch shown ends at the question again
        // (below which a regenerated reply's earlier version shows once more).
        if settlement.replyRemoved { recorder.then { try $0.setCurrent(id, userID) } }
        recorder.then { try $0.touchChat(id) }
        recorder.flush()
    }
}
