import AgentCore
import Synchronization

/// Wraps a real backend and keeps each round it was asked for, to check what a turn sent.
public final class RecordingBackend: ChatBackend {
    private let wrapped: any ChatBackend
    private let recorded = Mutex<[ChatRound]>([])

    public init(_ wrapped: any ChatBackend) {
        self.wrapped = wrapped
    }

    public var rounds: [ChatRound] { recorded.withLock { $0 } }

    public func streamRound(_ round: ChatRound, onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws -> [ToolCall] {
        recorded.withLock { $0.append(round) }
        return try await wrapped.streamRound(round, onEvent: onEvent)
    }
}
