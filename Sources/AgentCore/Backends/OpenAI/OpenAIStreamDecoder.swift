import FoundationEssentials

/// Decodes a streamed OpenAI chat completion (SSE carrying JSON chunks): text, reasoning
/// (`reasoning_content`, `reasoning`, or `<think>` opening the content), tool-call fragments
/// joined per `index`, errors in the stream, `[DONE]`. Each event is read as the SSE parser
/// completes it (`OpenAIChunkReader`), its data where the parser holds it.
public struct OpenAIStreamDecoder: ReplyStreamDecoder {
    private var parser: SSEParser
    private var reader = OpenAIChunkReader()

    /// `limit`: the most one streamed unit may hold (`StreamLimit`).
    public init(limit: Int = StreamLimit.bytes) {
        parser = SSEParser(limit: limit)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent] {
        var batch = ReplyEventBatch()
        parser.feed(bytes) { reader.handle($0, into: &batch) }
        reader.reportOverflow(parser.overflowed, into: &batch)
        return batch.finish()
    }

    public var hasOverflowed: Bool { parser.overflowed }

    public mutating func finish() -> (events: [ReplyEvent], outcome: StreamOutcome) {
        parser.finish()
        var batch = ReplyEventBatch()
        reader.finish(into: &batch)
        return (batch.finish(), reader.outcome)
    }
}
