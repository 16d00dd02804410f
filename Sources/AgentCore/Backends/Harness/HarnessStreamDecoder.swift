/// Decodes the `/llmtools` harness stream: SSE whose `data:` lines carry Ollama
/// chunks; an `event: tool_calls` block carries the calls, `event: error` an error.
public struct HarnessStreamDecoder: ReplyStreamDecoder {
    private var parser: SSEParser
    private var reader = OllamaChunkReader()
    private var sawDoneMarker = false
    private var sawToolCallsEvent = false

    /// `limit`: the most one streamed unit may hold (`StreamLimit`).
    public init(limit: Int = StreamLimit.bytes) {
        parser = SSEParser(limit: limit)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent] {
        var sseEvents: [SSEEvent] = []
        parser.feed(bytes) { sseEvents.append($0) }
        var batch = ReplyEventBatch()
        for event in sseEvents { handle(event, into: &batch) }
        batch.reportOverflow(parser.overflowed, errors: &reader.serverErrors)
        return batch.finish()
    }

    public var hasOverflowed: Bool { parser.overflowed }

    public mutating func finish() -> (events: [ReplyEvent], outcome: StreamOutcome) {
        parser.finish()
        var batch = ReplyEventBatch()
        reader.finish(into: &batch)
        return (batch.finish(), outcome)
    }

    private var outcome: StreamOutcome {
        if !reader.serverErrors.isEmpty { return .failed(message: reader.serverErrors.joined(separator: "\n")) }
        if reader.sawDone || sawDoneMarker || sawToolCallsEvent { return .complete(toolCalls: reader.toolCalls) }
        return .cutOff
    }

    private mutating func handle(_ event: SSEEvent, into batch: inout ReplyEventBatch) {
        let json = try? JSONParser.parse(event.dataBytes)
        switch event.type {
        case "error":
            let message = json.flatMap { OllamaChunk($0)?.errorMessage ?? OllamaChunk($0)?.content ?? ServerErrorBody.message(in: $0) }
            reader.reportError(message ?? event.data, into: &batch)
        case "tool_calls":
            sawToolCallsEvent = true
            if let json, let chunk = OllamaChunk(json) { reader.read(chunk, into: &batch) }
        case "message":
            if event.dataIs("[DONE]") {
                sawDoneMarker = true
                return
            }
            if let json, let chunk = OllamaChunk(json) { reader.read(chunk, into: &batch) }
        default:
            break
        }
    }
}
