import FoundationEssentials

/// The life of one reply, from the request to the settled pair of messages, by the same
/// rules in the window and in `agent-cli`: the reply starts as an empty placeholder; the
/// first event marks the user's message delivered; events build the reply
/// (`ReplyAssembler`); at the end the reply is kept with its final state — or removed when
/// nothing came — and the user's message is settled: marked failed ("not delivered") when
/// the request failed before any of the reply came. With a recorder, every step is saved
/// in order on its queue.
///
/// It works on messages its owner keeps (`inout`), so a growing reply is never copied.
public struct ReplyLifecycle: Sendable {
    /// How the exchange ended.
    public enum Ending: Sendable {
        /// The model finished its answer.
        case completed
        /// The user stopped it (Stop, Escape, Ctrl+C, another chat opened).
        case stopped
        case failed(any Error)
    }

    /// What settling did, for the owner to show.
    public struct Settlement: Sendable, Equatable {
        /// The reply had nothing in it and is gone.
        public let replyRemoved: Bool
        /// The user's message got nothing through (never delivered, or its reply failed before
        /// anything came): its text should go back to the entry.
        public let userUndelivered: Bool
    }

    public let userSeq: Int?
    public let replySeq: Int?
    private let recorder: ReplyRecorder?
    /// The user's message has a reply already (this one is another version of it): it was
    /// delivered, whatever becomes of this request.
    private let answered: Bool

    /// `userSeq`/`replySeq`: the messages' places in their stored chat (nil: not stored).
    public init(userSeq: Int? = nil, replySeq: Int? = nil, recorder: ReplyRecorder? = nil, answered: Bool = false) {
        self.userSeq = userSeq
        self.replySeq = replySeq
        self.recorder = recorder
        self.answered = answered
    }

    /// The reply a request starts with: empty, "sending".
    public static func placeholder(model: String?) -> ChatMessage {
        ChatMessage(role: .assistant, text: "", model: model, state: .sending)
    }

    /// Applies a batch of the turn's events. Returns the problems to tell the user (a tool
    /// the model called that Agent does not have).
    public func receive(_ events: some Collection<ChatTurn.Event>, reply: inout ChatMessage, user: inout ChatMessage) -> [String] {
        if reply.state == .sending {
            reply.state = .streaming
            reply.time = Date()
            if user.state == .sending {
                user.state = .done
                save(user, seq: userSeq)
            }
        }
        var problems: [String] = []
        for event in events {
            if let problem = ReplyAssembler.apply(event, to: &reply) { problems.append(problem) }
        }
        if let recorder, let replySeq {
            recorder.update(seq: replySeq, starting: reply) { copy in
                for event in events { _ = ReplyAssembler.apply(event, to: &copy) }
            }
        }
        return problems
    }

    /// Settles both messages once the exchange is over. A reply that never got any text (nor
    /// reasoning, nor called a tool) is removed, and so is a failed one that holds only the
    /// server's error (the alert says it). A user message that was never delivered, or whose
    /// reply failed before anything came, is marked failed.
    public func settle(_ ending: Ending, reply: inout ChatMessage, user: inout ChatMessage) -> Settlement {
        let delivered = reply.state != .sending
        let (stopped, failed) = switch ending {
        case .stopped: (true, false)
        case .failed: (false, true)
        case .completed: (false, false)
        }
        let nothingFromTheModel = reply.text.isEmpty || (failed && reply.modelText.isEmpty)
        let removed = nothingFromTheModel && reply.toolCalls.isEmpty && reply.reasoning == nil
        reply.reasoning?.end()
        if removed {
            if let recorder, replySeq != nil { recorder.discard(reply.id) }
        } else {
            reply.state = Self.finalState(of: ending, replyHasText: !reply.modelText.isEmpty)
            reply.usage = Self.timed(reply)
            if let recorder, let replySeq { recorder.finish(reply, seq: replySeq) }
        }
        // A request that failed before a word of the reply came got nothing through, whether or
        // not the server had begun: the question goes back, to be sent again.
        let undelivered = !answered && !stopped && (!delivered || (failed && removed))
        if user.state == .sending || undelivered {
            user.state = undelivered ? .failed : .done
            save(user, seq: userSeq)
        }
        return Settlement(replyRemoved: removed, userUndelivered: undelivered)
    }

    /// The state a kept reply ends in.
    public static func finalState(of ending: Ending, replyHasText: Bool) -> MessageState {
        switch ending {
        case .completed: .done
        case .stopped: .stopped
        case .failed(ChatError.cutOff) where replyHasText, .failed(ChatError.stalled) where replyHasText,
             .failed(ChatError.toolRoundLimit):
            .cutOff
        case .failed: .failed
        }
    }

    /// The reply's token counts, timed by the clock here (from its first token to now)
    /// when the server counted tokens but not time and no tool ran in between.
    private static func timed(_ reply: ChatMessage) -> TokenUsage? {
        guard var usage = reply.usage, usage.generationSeconds == nil, usage.completionTokens != nil,
              reply.toolCalls.isEmpty else { return reply.usage }
        usage.generationSeconds = Date().timeIntervalSince(reply.time)
        return usage
    }

    private func save(_ message: ChatMessage, seq: Int?) {
        guard let recorder, let seq else { return }
        recorder.then { try $0.save(message, in: recorder.chat, seq: seq) }
    }
}
