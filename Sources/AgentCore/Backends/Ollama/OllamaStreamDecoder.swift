/// Decodes Ollama's `/api/chat` stream: one JSON object per line (`message.content`,
/// `message.thinking`, `message.tool_calls` with object arguments, `done` with `eval_count`/`eval_duration`,
/// or `{"error": …}`).
public struct OllamaStreamDecoder: ReplyStreamDecoder {
    private var lines: NDJSONLineSplitter
    private var reader = OllamaChunkReader()
    private var firstMalformedLine: String?

    /// `limit`: the most one streamed unit may hold (`StreamLimit`).
    public init(limit: Int = StreamLimit.bytes) {
        lines = NDJSONLineSplitter(limit: limit)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent] {
        var batch = ReplyEventBatch()
        var received: [[UInt8]] = []
        lines.feed(bytes) { received.append($0) }
        for line in received { handle(line, into: &batch) }
        batch.reportOverflow(lines.overflowed, errors: &reader.serverErrors)
        return batch.finish()
    }

    public var hasOverflowed: Bool { lines.overflowed }

    public mutating func finish() -> (events: [ReplyEvent], outcome: StreamOutcome) {
        var batch = ReplyEventBatch()
        var last: [[UInt8]] = []
        lines.finish { last.append($0) }
        for line in last { handle(line, into: &batch) }
        reader.finish(into: &batch)
        return (batch.finish(), outcome)
    }

    private var outcome: StreamOutcome {
        if !reader.serverErrors.isEmpty { return .failed(message: reader.serverErrors.joined(separator: "\n")) }
        if reader.sawDone { return .complete(toolCalls: reader.toolCalls) }
        if !reader.sawContent, reader.toolCalls.isEmpty, let firstMalformedLine {
            return .failed(message: tr("The server sent data that is not an Ollama chat stream:\n%s", firstMalformedLine))
        }
        return .cutOff
    }

    private mutating func handle(_ line: [UInt8], into batch: inout ReplyEventBatch) {
        guard !reader.sawDone else { return }
        guard let json = try? JSONParser.parse(line), let chunk = OllamaChunk(json) else {
            if firstMalformedLine == nil { firstMalformedLine = String(decoding: line.prefix(200), as: UTF8.self) }
            return
        }
        reader.read(chunk, into: &batch)
    }
}
