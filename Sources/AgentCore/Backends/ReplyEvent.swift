import Foundation

/// What a backend reports while a reply streams in.
public enum ReplyEvent: Sendable, Equatable {
    /// The server named the model that answers, and when it started.
    case started(model: String?, created: Date?)
    /// More of the reply's text.
    case text(String)
    /// The server reported an error inside the stream (`event: error` or an `error` object).
    /// Its text belongs in the reply, as the seed shows it, and the request ends as failed.
    case serverError(String)
    /// The server said the reply is complete, with its reason (`stop`, `length`, …).
    case finished(reason: String?)
}

/// A source of streamed replies: one request per call, cancelled by ending the iteration.
public protocol ChatBackend: Sendable {
    /// Streams the reply to the conversation `messages` (oldest first). The stream ends
    /// normally when the reply is complete and throws a `ChatError` otherwise.
    func streamReply(to messages: [ChatMessage]) -> AsyncThrowingStream<ReplyEvent, any Error>
}
