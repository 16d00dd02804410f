/// How a streamed round ended, as its decoder judges it.
public enum StreamOutcome: Sendable, Equatable {
    /// The server finished the round; it may have asked for tools.
    case complete(toolCalls: [ToolCall])
    /// The stream stopped before the server said it was done.
    case cutOff
    /// The server reported an error in the stream.
    case failed(message: String)
}

/// Turns a protocol's streamed bytes into reply events. Pure: no I/O, fed chunks split
/// anywhere.
public protocol ReplyStreamDecoder: Sendable {
    /// Decodes the next bytes; consecutive text is merged into one `.text` event.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent]
    /// The stream ended at the transport level: the events its unfinished end still held (a
    /// last line without its newline), and how the round ended.
    mutating func finish() -> (events: [ReplyEvent], outcome: StreamOutcome)
    /// A unit went over `StreamLimit`: the stream is broken and not worth reading on.
    var hasOverflowed: Bool { get }
}

extension ReplyStreamDecoder {
    public mutating func feed(_ bytes: [UInt8]) -> [ReplyEvent] {
        bytes.withUnsafeBytes { feed($0) }
    }
}

/// Collects a round's events while decoding, merging consecutive text.
struct ReplyEventBatch {
    /// Reports the stream-limit error once, when `overflowed` first holds.
    mutating func reportOverflow(_ overflowed: Bool, errors: inout [String]) {
        guard overflowed, !errors.contains(StreamLimit.message) else { return }
        errors.append(StreamLimit.message)
        append(.serverError(StreamLimit.message))
    }

    private(set) var events: [ReplyEvent] = []
    private var pendingText = ""

    mutating func text(_ text: String) {
        pendingText += text
    }

    mutating func append(_ event: ReplyEvent) {
        flush()
        events.append(event)
    }

    mutating func finish() -> [ReplyEvent] {
        flush()
        return events
    }

    private mutating func flush() {
        if !pendingText.isEmpty {
            events.append(.text(pendingText))
            pendingText = ""
        }
    }
}
