import FoundationEssentials

/// What the chunks of one streamed OpenAI chat completion said, event by event: text and
/// reasoning into the batch, tool-call fragments joined per `index`, errors, `[DONE]`, and
/// from all of it how the round ended. `OpenAIStreamDecoder` feeds it each SSE event.
struct OpenAIChunkReader {
    private struct PendingCall {
        var id: String?
        var name = ""
        var arguments = ""
    }

    private var sawDone = false
    private var finishReason: String?
    private var startedReported = false
    private var serverErrors: [String] = []
    private var sawText = false
    private var firstMalformedPayload: String?
    private var pendingCalls: [Int: PendingCall] = [:]
    private var thinkSplitter = ThinkTagSplitter()
    private var template = ChatCompletionChunkTemplate()

    /// How the round ended, judged from what was read.
    var outcome: StreamOutcome {
        if !serverErrors.isEmpty { return .failed(message: serverErrors.joined(separator: "\n")) }
        if sawDone || finishReason != nil { return .complete(toolCalls: toolCalls) }
        if !sawText, pendingCalls.isEmpty, let firstMalformedPayload {
            return .failed(message: tr("The server sent data that is not a chat completion:\n%s", firstMalformedPayload))
        }
        return .cutOff
    }

    /// The tool calls assembled so far, in index order.
    private var toolCalls: [ToolCall] {
        pendingCalls.sorted { $0.key < $1.key }.map { index, call in
            ToolCall(id: call.id ?? "call_\(index)", name: call.name, arguments: ToolCall.arguments(fromText: call.arguments))
        }
    }

    /// Reads one SSE event into `batch`; after `[DONE]`, nothing more.
    mutating func handle(_ event: SSEEvent, into batch: inout ReplyEventBatch) {
        guard !sawDone else { return }
        switch event.type {
        case "error":
            let message = errorMessage(inEventData: event.data)
            serverErrors.append(message)
            batch.append(.serverError(message))
        case "message":
            if event.dataIs("[DONE]") || event.dataIs(" [DONE]") {
                sawDone = true
                batch.endContent(of: &thinkSplitter)
                if finishReason == nil { batch.append(.finished(reason: nil)) }
                return
            }
            guard let chunk = try? template.chunk(in: event.dataBytes) else {
                if firstMalformedPayload == nil { firstMalformedPayload = String(event.data.prefix(200)) }
                return
            }
            if let message = chunk.errorMessage {
                serverErrors.append(message)
                batch.append(.serverError(message))
                return
            }
            if !startedReported, chunk.model != nil || chunk.hasChoices {
                startedReported = true
                batch.append(.started(model: chunk.model, created: chunk.created.map { Date(timeIntervalSince1970: $0) }))
            }
            if batch.chunkText(reasoning: chunk.reasoning, content: chunk.content, through: &thinkSplitter) { sawText = true }
            for fragment in chunk.toolCalls {
                var call = pendingCalls[fragment.index] ?? PendingCall()
                if let id = fragment.id, !id.isEmpty { call.id = id }
                if let name = fragment.name { call.name += name }
                if let arguments = fragment.arguments { call.arguments += arguments }
                pendingCalls[fragment.index] = call
            }
            if let usage = chunk.usage { batch.append(.usage(usage)) }
            if let reason = chunk.finishReason {
                finishReason = reason
                batch.endContent(of: &thinkSplitter)
                batch.append(.finished(reason: reason))
            }
        default:
            break  // other named events carry nothing for a chat reply
        }
    }

    /// An `event: error`'s message: its data's `error`, else a chunk's content, else any
    /// message the JSON holds, else the data as it came.
    private func errorMessage(inEventData data: String) -> String {
        guard let json = try? JSONParser.parse(data) else { return data }
        if let error = json["error"], !error.isNull, let message = ServerErrorBody.message(in: error) { return message }
        if let content = json["choices"]?[0]?["delta"]?["content"]?.stringValue, !content.isEmpty { return content }
        return ServerErrorBody.message(in: json) ?? data
    }

    /// The stream ended: what the content still held back.
    mutating func finish(into batch: inout ReplyEventBatch) {
        batch.endContent(of: &thinkSplitter)
    }

    /// Reports the stream-limit error once.
    mutating func reportOverflow(_ overflowed: Bool, into batch: inout ReplyEventBatch) {
        batch.reportOverflow(overflowed, errors: &serverErrors)
    }
}
