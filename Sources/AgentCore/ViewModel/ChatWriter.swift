import Dispatch
import FoundationEssentials

/// Keeps the store in step with the chat on screen: creates a chat with its first message,
/// saves and deletes messages, marks the chat as used. Saves go on one serial queue, which
/// the replies' recorders share, so they land in order and the window never waits for the
/// disk; anything that reads or rewrites the chat waits for them first (`settledStore`). A
/// write that fails is reported — the user learns the window and the store disagree.
@MainActor
public final class ChatWriter {
    private let store: ChatStore
    private let queue = DispatchQueue(label: "agent.chat-writer")
    /// The recorder of the latest reply, kept after it ends until its last save has landed.
    private var recorder: ReplyRecorder?
    private let report: @MainActor (String) -> Void

    init(store: ChatStore, report: @escaping @MainActor (String) -> Void) {
        self.store = store
        self.report = report
    }

    /// The store, once the saves asked for so far have landed — not a streaming reply's
    /// next throttled save, which it does not hurry. Waits only while a save is being written.
    var settledStore: ChatStore {
        queue.sync {}
        return store
    }

    /// A recorder for a reply about to stream in `chat`; later writes go behind its saves.
    func startRecording(in chat: UUID) -> ReplyRecorder {
        let report = report
        let made = ReplyRecorder(store: store, chat: chat, queue: queue) { error in
            let message = Self.failure(error)
            Task { @MainActor in report(message) }
        }
        recorder = made
        return made
    }

    /// Waits until every save has landed, a streaming reply's latest state included (quitting).
    func flush() {
        recorder?.flush()
        queue.sync {}
    }

    /// Creates `summary` in the store; false (and reported) when that failed.
    func create(_ summary: ChatSummary) -> Bool {
        perform { try $0.createChat(summary) }
    }

    /// Saves `message` at `seq` in `chat`, after the saves before it, without waiting;
    /// `showing`: it ends the branch the chat shows now.
    func save(_ message: ChatMessage, in chat: UUID, seq: Int, showing: Bool = false) {
        write {
            try $0.save(message, in: chat, seq: seq)
            guard showing else { return }
            try $0.setCurrent(chat, message.id)
            if let parent = message.parentID { try $0.choose(version: message.id, under: parent) }
        }
    }

    /// Deletes message `replaced` (and what follows it) once `replacement` is in the store,
    /// after the saves before it, without waiting: if the replacement's save failed, the
    /// message it replaces stays.
    func replace(_ replaced: UUID, with replacement: UUID, in chat: UUID) {
        write { store in
            guard try store.message(replacement) != nil else { return }
            try store.deleteBranch(replaced, in: chat)
        }
    }

    /// Remembers `message` as the end of the branch `chat` shows, after the saves before it.
    func setCurrent(_ chat: UUID, _ message: UUID?) {
        write { try $0.setCurrent(chat, message) }
    }

    /// Marks `chat` as just used (its date and model), after the saves before it.
    func touch(_ chat: ChatSummary) {
        let (id, date, model) = (chat.id, chat.updated, chat.model)
        write { try $0.touchChat(id, at: date, model: model) }
    }

    /// Keeps `settings` with `chat`; false (and reported) when that failed.
    func setSettings(_ chat: UUID, _ settings: ChatSettings) -> Bool {
        perform { try $0.setSettings(chat, settings) }
    }

    /// Runs `body` on the settled store now (a change the window shows only once it is kept);
    /// false (and reported) when it threw.
    func perform(_ body: (ChatStore) throws -> Void) -> Bool {
        do {
            try body(settledStore)
            return true
        } catch {
            report(Self.failure(error))
            return false
        }
    }

    /// Runs `body` on the queue, after the saves asked for so far.
    private func write(_ body: @escaping @Sendable (ChatStore) throws -> Void) {
        let (store, report) = (store, report)
        queue.async {
            do {
                try body(store)
            } catch {
                let message = Self.failure(error)
                Task { @MainActor in report(message) }
            }
        }
    }

    /// What the user is told when a write fails.
    nonisolated static func failure(_ error: any Error) -> String {
        // TRANSLATORS: %s is the reason.
        tr("Could not save the chat: %s. What the window shows may not all be kept.", ChatError.describe(error))
    }
}
