/// What the events of one `/llmtools` harness stream said: Ollama chunks in `data:` lines
/// (`OllamaChunkReader`), the calls in an `event: tool_calls` block, errors in `event: error`,
/// and from all of it how the round ended.
struct HarnessEventReader {
    var reader = OllamaChunkReader()
    private var sawDoneMarker = false
    private var sawToolCallsEvent = false

    /// How the round ended, judged from what was read.
    var outcome: StreamOutcome {
        if !reader.serverErrors.isEmpty { return .failed(message: reader.serverErrors.joined(separator: "\n")) }
        if reader.sawDone || sawDoneMarker || sawToolCallsEvent { return .complete(toolCalls: reader.toolCalls) }
        return .cutOff
    }

    /// Reads one SSE event into `batch`.
    mutating func handle(_ event: SSEEvent, into batch: inout ReplyEventBatch) {
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
