/// Decodes the `/llmtools` harness stream: SSE whose `data:` lines carry Ollama
/// chunks; an `event: tool_calls` block carries the calls, `event: error` an error. Each event
/// is read as the SSE parser completes it (`HarnessEventReader`).
public struct HarnessStreamDecoder: ReplyStreamDecoder {
    private var parser: SSEParser
    private var events = HarnessEventReader()

    /// `limit`: the most one streamed unit may hold (`StreamLimit`).
    public init(limit: Int = StreamLimit.bytes) {
        parser = SSEParser(limit: limit)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent] {
        var batch = ReplyEventBatch()
        parser.feed(bytes) { events.handle($0, into: &batch) }
        batch.reportOverflow(parser.overflowed, errors: &events.reader.serverErrors)
        return batch.finish()
    }

    public var hasOverflowed: Bool { parser.overflowed }

    public mutating func finish() -> (events: [ReplyEvent], outcome: StreamOutcome) {
        parser.finish()
        var batch = ReplyEventBatch()
        events.reader.finish(into: &batch)
        return (batch.finish(), events.outcome)
    }
}
