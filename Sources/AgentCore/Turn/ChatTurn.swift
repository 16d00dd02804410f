import Synchronization

/// One user turn: streams rounds from the backend, runs the tools the model calls and
/// sends their results back, round after round, until the model answers — or the round
/// cap stops a model that would loop forever. The window's view model and `agent-cli`
/// both run their turns through it.
public struct ChatTurn: Sendable {
    /// What happens during a turn, in order, from whichever thread produced it.
    public enum Event: Sendable {
        case reply(ReplyEvent)
        case toolStarted(ToolCall)
        case toolFinished(ToolCall)
        /// A running tool said how far it has come (the call as started, and the words).
        case toolProgress(ToolCall, String)
        /// Worth telling the user, though the turn goes on (the model called a tool Agent does not have).
        case problem(String)
    }

    public static let defaultMaximumRounds = 8

    public let backend: any ChatBackend
    public let toolbox: Toolbox
    public let maximumRounds: Int

    public init(backend: any ChatBackend, toolbox: Toolbox = Toolbox(), maximumRounds: Int = ChatTurn.defaultMaximumRounds) {
        self.backend = backend
        self.toolbox = toolbox
        self.maximumRounds = maximumRounds
    }

    /// Runs the turn that answers the last message of `context`. Returns when the reply is
    /// complete (or the task was cancelled); throws a `ChatError` otherwise.
    public func run(context: [ChatMessage], onEvent: @escaping @Sendable (Event) -> Void) async throws {
        // The reply's text so far, its notices marked, as the next round's context carries it.
        let reply = Mutex(ChatMessage(role: .assistant, text: "", state: .streaming))
        // Token counts: those of earlier rounds, and the round streaming now.
        let usage = Mutex((earlier: TokenUsage?.none, round: TokenUsage?.none))
        var calls: [ToolCall] = []
        var answered: [ToolCall] = []
        for round in 0..<maximumRounds {
            var messages = context
            if !calls.isEmpty {
                var soFar = reply.withLock { $0 }
                soFar.toolCalls = calls
                messages.append(soFar)
            }
            let request = ChatRound(messages: messages, tools: toolbox.definitions, toolResults: answered)
            let requested = try await backend.streamRound(request) { event in
                if case .usage(let reported) = event {
                    // The reply's counts so far: every round's, this one's as last reported.
                    let total = usage.withLock { usage in
                        usage.round = usage.round.map { $0.updated(with: reported) } ?? reported
                        return usage.earlier.map { $0.adding(usage.round) } ?? usage.round
                    }
                    if let total { onEvent(.reply(.usage(total))) }
                    return
                }
                reply.withLock { _ = ReplyAssembler.appendText(of: event, to: &$0) }
                onEvent(.reply(event))
            }
            usage.withLock { usage in
                usage.earlier = usage.earlier.map { $0.adding(usage.round) } ?? usage.round
                usage.round = nil
            }
            if requested.isEmpty || Task.isCancelled { return }
            for call in requested where toolbox.tool(named: call.name) == nil {
                // Said in the reply and to the user; the model gets an error result.
                // TRANSLATORS: %s is the name of a tool the model asked for.
                let notice = ReplyEvent.serverError(tr("The model called a tool Agent does not have: “%s”.", call.name))
                reply.withLock { _ = ReplyAssembler.appendText(of: notice, to: &$0) }
                onEvent(.reply(notice))
                // TRANSLATORS: %s is the name of a tool the model asked for.
                onEvent(.problem(tr("The model called the tool “%s”, which Agent does not have. It was told so, and the conversation goes on.", call.name)))
            }
            let offset = reply.withLock { $0.text.utf8.count }
            answered = []
            for var call in requested {
                // Stopped: the calls left neither run nor ask the user anything.
                if Task.isCancelled { break }
                call.textOffset = offset
                call.round = round
                call.server = toolbox.tool(named: call.name)?.server
                onEvent(.toolStarted(call))
                let started = call
                let outcome = await toolbox.run(call) { onEvent(.toolProgress(started, $0)) }
                call.result = outcome.text
                call.failed = outcome.isFailure
                onEvent(.toolFinished(call))
                answered.append(call)
            }
            calls += answered
            if Task.isCancelled { return }
        }
        throw ChatError.toolRoundLimit(maximumRounds)
    }
}
