import FoundationEssentials

/// What the chunks of one streamed OpenAI chat completion said, event by event: text and
/// reasoning into the batch, tool-call fragments joined per `index` (a fragment with another
/// `id` starting a call of its own), errors, `[DONE]`, and from all of it how the round
/// ended. `OpenAIStreamDecoder` feeds it each SSE event.
struct OpenAIChunkReader {
    private struct PendingCall {
        /// The fragments' `index`.
        let index: Int
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
    /// The calls begun so far, in the order they began.
    private var pendingCalls: [PendingCall] = []
    /// Where in `pendingCalls` the call that fragments with each `index` continue is.
    private var callAtIndex: [Int: Int] = [:]
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

    /// The tool calls assembled so far, in index order; calls that shared an index, in the
    /// order they began.
    private var toolCalls: [ToolCall] {
        pendingCalls.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map { _, call in
            ToolCall(id: call.id ?? "call_\(call.index)", name: call.name, arguments: ToolCall.arguments(fromText: call.arguments))
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
            for fragment in chunk.toolCalls { read(fragment) }
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

    /// Adds `fragment` to the call pending at its index, or begins a call. A fragment that
    /// names a tool under another `id` than that call's begins another: OpenAI sends the id
    /// and name on a call's first fragment only, but some servers (Gemini's OpenAI-compatible
    /// endpoint) send each of several calls whole with no index, so all at 0, told apart only
    /// by their ids. A fragment with another id and no name still continues the call.
    private mutating func read(_ fragment: ChatCompletionChunk.ToolCallFragment) {
        let id = fragment.id.flatMap { $0.isEmpty ? nil : $0 }
        var position = callAtIndex[fragment.index]
        if let current = position, let id, let currentID = pendingCalls[current].id, currentID != id,
           fragment.name?.isEmpty == false {
            position = nil
        }
        let at = position ?? pendingCalls.count
        if position == nil {
            pendingCalls.append(PendingCall(index: fragment.index))
            callAtIndex[fragment.index] = at
        }
        if let id { pendingCalls[at].id = id }
        if let name = fragment.name { pendingCalls[at].name += name }
        if let arguments = fragment.arguments { pendingCalls[at].arguments += arguments }
    }

    /// An `event: error`'s message: its data's `error`, else a chunk's content, else any
    /// message the JSON holds, else the data as it came.
    private func errorMessage(inEventData data: String) -> String {
        guard let json = try? JSONParser.parse(data) else { return data }
        if let error = json["error"], !error.isNull, let message = ServerErrorBody.message(in: error) { return message }
        if let content = json["choices"]?[0]?["delta"]?["content"]?.stringValue, !content.isEmpty { return content }
        return ServerErrorBody.message(in: json) ?? data
    }

    /// A whole chat completion, or an error object, sent in place of a stream: read as the one
    /// chunk it would have been streamed as (each choice's `message` its `delta`), then as the
    /// end of the round. One that ends part way was cut off, as a stream that ends early is;
    /// anything else is reported as not a chat completion.
    mutating func handleWholeReply(_ bytes: [UInt8], into batch: inout ReplyEventBatch) {
        let parsed = Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(bytes) }
        if case .failure(let error) = parsed, error.offset == bytes.count { return }
        guard case .success(let completion) = parsed, completion["choices"]?.arrayValue != nil else {
            handle(SSEEvent(dataBytes: bytes), into: &batch)
            if serverErrors.isEmpty, firstMalformedPayload == nil {
                firstMalformedPayload = String(String(decoding: bytes.prefix(1024), as: UTF8.self).prefix(200))
            }
            return
        }
        handle(SSEEvent(dataBytes: Array(Self.streamedChunk(of: completion).serialized.utf8)), into: &batch)
        handle(SSEEvent(data: "[DONE]"), into: &batch)
    }

    /// `completion` with each choice's `message` named `delta`, as a streamed chunk has it.
    private static func streamedChunk(of completion: JSONValue) -> JSONValue {
        guard case .object(let members) = completion else { return completion }
        return .object(members.map { member in
            guard member.key == "choices", case .array(let choices) = member.value else { return member }
            return (member.key, .array(choices.map { choice in
                guard case .object(let fields) = choice else { return choice }
                return .object(fields.map { $0.key == "message" ? (key: "delta", value: $0.value) : $0 })
            }))
        })
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
