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
    /// Decodes the next bytes; consecutive text is merged into one `.text` event, consecutive
    /// reasoning into one `.reasoning`.
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

/// Collects a round's events while decoding, merging consecutive text and consecutive
/// reasoning.
struct ReplyEventBatch {
    /// Reports the stream-limit error once, when `overflowed` first holds.
    mutating func reportOverflow(_ overflowed: Bool, errors: inout [String]) {
        guard overflowed, !errors.contains(StreamLimit.message) else { return }
        errors.append(StreamLimit.message)
        append(.serverError(StreamLimit.message))
    }

    private(set) var events: [ReplyEvent] = []
    private var pending = ""
    private var pendingIsReasoning = false

    mutating func text(_ text: String) {
        add(text, isReasoning: false)
    }

    mutating func reasoning(_ text: String) {
        add(text, isReasoning: true)
    }

    /// Content that may open with `<think>…</think>`, told apart by `splitter`.
    mutating func content(_ text: String, through splitter: inout ThinkTagSplitter) {
        // Past the thinking, each token is answer: no pieces to make.
        if splitter.isAnswering {
            add(text, isReasoning: false)
        } else {
            add(splitter.feed(text))
        }
    }

    /// A chunk's thinking and answer text, in that order (`content` through `splitter`);
    /// whether either held any.
    mutating func chunkText(reasoning: String?, content: String?, through splitter: inout ThinkTagSplitter) -> Bool {
        var sawText = false
        if let reasoning, !reasoning.isEmpty {
            sawText = true
            self.reasoning(reasoning)
        }
        if let content, !content.isEmpty {
            sawText = true
            self.content(content, through: &splitter)
        }
        return sawText
    }

    /// What `splitter` still held, now that the content is over.
    mutating func endContent(of splitter: inout ThinkTagSplitter) {
        add(splitter.finish())
    }

    mutating func append(_ event: ReplyEvent) {
        flush()
        events.append(event)
    }

    mutating func finish() -> [ReplyEvent] {
        flush()
        return events
    }

    private mutating func add(_ pieces: [ThinkTagSplitter.Piece]) {
        for piece in pieces {
            switch piece {
            case .answer(let text): add(text, isReasoning: false)
            case .reasoning(let text): add(text, isReasoning: true)
            }
        }
    }

    private mutating func add(_ piece: String, isReasoning: Bool) {
        guard !piece.isEmpty else { return }
        if isReasoning != pendingIsReasoning { flush() }
        pending += piece
        pendingIsReasoning = isReasoning
    }

    private mutating func flush() {
        if !pending.isEmpty {
            events.append(pendingIsReasoning ? .reasoning(pending) : .text(pending))
            pending = ""
        }
    }
}
