import FoundationEssentials

/// What a backend reports while a reply streams in.
public enum ReplyEvent: Sendable, Equatable {
    /// The server named the model that answers, and when it started.
    case started(model: String?, created: Date?)
    /// More of the reply's text.
    case text(String)
    /// More of what a reasoning model thought before answering: kept apart from the text,
    /// never part of the answer.
    case reasoning(String)
    /// The server reported an error inside the stream (`event: error` or an `error` object).
    /// Its text belongs in the reply, where the user reads it, as Agent's notice (never sent
    /// back to the model), and the request ends as failed.
    case serverError(String)
    /// The server said the reply is complete, with its reason (`stop`, `length`, …).
    case finished(reason: String?)
    /// The server's token counts (and generation time) for the round.
    case usage(TokenUsage)
}

extension ReplyEvent {
    /// The text this event adds to a reply: a server's error shows inside the
    /// reply, after a blank line when the reply already has text.
    public func transcriptText(replyIsEmpty: Bool) -> String? {
        switch self {
        case .text(let text): text
        case .serverError(let message): (replyIsEmpty ? "" : "\n\n") + tr("Error: %s", message)
        case .started, .reasoning, .finished, .usage: nil
        }
    }
}

/// One request to a backend: the conversation, the tools on offer, and the tool results
/// this round answers.
public struct ChatRound: Sendable {
    /// The conversation so far, oldest first. An assistant message with tool calls stands for
    /// the rounds it took (its text split at each call's `textOffset`).
    public var messages: [ChatMessage]
    public var tools: [ToolDefinition]
    /// The calls answered since the previous round; empty on a turn's first round.
    public var toolResults: [ToolCall]

    public init(messages: [ChatMessage], tools: [ToolDefinition] = [], toolResults: [ToolCall] = []) {
        self.messages = messages
        self.tools = tools
        self.toolResults = toolResults
    }
}

/// A source of streamed replies: one request per call.
public protocol ChatBackend: Sendable {
    /// Streams one round. `onEvent` runs on the transport's thread for each event as it
    /// arrives — no hop per token; hand work to the main thread from there as needed, and
    /// never block there (every transfer of the process shares that thread).
    /// Returns the tool calls the model asked for (none: the reply is complete), throws a
    /// `ChatError` when the round failed, and returns early (without error) when the task
    /// is cancelled.
    func streamRound(_ round: ChatRound, onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws -> [ToolCall]
}

extension ChatBackend {
    /// One round without tools: a plain reply to `messages`.
    public func streamReply(to messages: [ChatMessage], onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws {
        _ = try await streamRound(ChatRound(messages: messages), onEvent: onEvent)
    }

    /// The same stream as an async sequence (one hop per event; for tests and scripts).
    public func replyEvents(to messages: [ChatMessage]) -> AsyncThrowingStream<ReplyEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await streamReply(to: messages) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
