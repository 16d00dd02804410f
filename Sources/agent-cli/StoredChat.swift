import AgentCore
import Foundation
import Synchronization

/// A turn of a stored chat run from the terminal (`--chat ID|new`): the prompt and the
/// reply are saved as they go (the reply about once a second), so a crash loses at most
/// the last second, exactly as in the window.
final class StoredChat: Sendable {
    let chat: ChatSummary
    let context: [ChatMessage]
    private let store: ChatStore
    private let user: ChatMessage
    private let userSeq: Int
    private let replySeq: Int
    private let recorder: ReplyRecorder
    private let reply: Mutex<ChatMessage>

    struct UnknownChat: Error, LocalizedError {
        let id: String
        var errorDescription: String? { "there is no chat with id \(id) (see --list-chats)" }
    }

    init(_ spec: String, store: ChatStore, prompt: String, model: String, settings: SettingsStore) throws {
        let summary: ChatSummary
        if spec == "new" {
            summary = try store.createChat(ChatSummary(title: ChatTitle.make(from: prompt), model: model,
                                                       systemPrompt: settings.systemPrompt))
        } else {
            guard let id = UUID(uuidString: spec), let existing = try store.chat(id) else { throw UnknownChat(id: spec) }
            summary = existing
        }
        let history = Conversation(messages: try store.messages(in: summary.id).map(\.message)).context()
        user = ChatMessage(role: .user, text: prompt, state: .sending)
        userSeq = try store.nextSeq(in: summary.id)
        replySeq = userSeq + 1
        try store.save(user, in: summary.id, seq: userSeq)
        let placeholder = ChatMessage(role: .assistant, text: "", model: model, state: .sending)
        try store.save(placeholder, in: summary.id, seq: replySeq)
        try store.touchChat(summary.id, model: model)
        reply = Mutex(placeholder)
        recorder = ReplyRecorder(store: store, chat: summary.id)
        context = ContextWindow.select(history + [user], systemPrompt: summary.systemPrompt, budget: settings.contextBudget)
        chat = summary
        self.store = store
    }

    /// From the transport's thread.
    func handle(_ event: ChatTurn.Event) {
        let snapshot = reply.withLock { reply -> ChatMessage in
            if reply.state == .sending { reply.state = .streaming }
            ReplyAssembler.apply(event, to: &reply)
            return reply
        }
        recorder.update(snapshot, seq: replySeq)
    }

    /// Settles both messages as the view model does.
    func finish(_ result: Result<Void, any Error>, interrupted: Bool) {
        var final = reply.withLock { $0 }
        let delivered = final.state != .sending
        switch result {
        case .success: final.state = interrupted ? .stopped : .done
        case .failure(ChatError.cutOff) where !final.text.isEmpty, .failure(ChatError.stalled) where !final.text.isEmpty:
            final.state = .cutOff
        case .failure(ChatError.toolRoundLimit): final.state = .cutOff
        case .failure: final.state = interrupted ? .stopped : .failed
        }
        if final.text.isEmpty && final.toolCalls.isEmpty {
            recorder.flush()
            try? store.deleteMessage(final.id)
        } else {
            recorder.finish(final, seq: replySeq)
            recorder.flush()
        }
        var settledUser = user
        settledUser.state = delivered || interrupted ? .done : .failed
        try? store.save(settledUser, in: chat.id, seq: userSeq)
        try? store.touchChat(chat.id)
    }
}
