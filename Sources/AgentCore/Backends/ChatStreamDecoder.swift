import Foundation

/// Turns the bytes of a streamed chat completion (SSE carrying OpenAI chunks) into reply
/// events, and judges at the end whether the reply was complete. Pure: no I/O.
public struct ChatStreamDecoder: Sendable {
    /// How the stream ended.
    public enum Outcome: Sendable, Equatable {
        case complete(finishReason: String?)
        case cutOff
        case failed(message: String)
    }

    private var parser = SSEParser()
    private var sawDone = false
    private var finishReason: String?
    private var startedReported = false
    private var serverErrors: [String] = []
    private var sawText = false
    private var firstMalformedPayload: String?

    public init() {}

    /// Decodes the next chunk of bytes. Text from consecutive events is merged into one
    /// `.text` event, so a burst of tokens becomes one update.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent] {
        var sseEvents: [SSEEvent] = []
        parser.feed(bytes) { sseEvents.append($0) }
        var events: [ReplyEvent] = []
        var pendingText = ""
        for event in sseEvents {
            handle(event, into: &events, pendingText: &pendingText)
        }
        if !pendingText.isEmpty { events.append(.text(pendingText)) }
        return events
    }

    public mutating func feed(_ bytes: [UInt8]) -> [ReplyEvent] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The stream ended cleanly at the transport level: was the reply complete?
    public mutating func finish() -> Outcome {
        parser.finish()
        if !serverErrors.isEmpty { return .failed(message: serverErrors.joined(separator: "\n")) }
        if sawDone || finishReason != nil { return .complete(finishReason: finishReason) }
        if !sawText, let firstMalformedPayload {
            return .failed(message: "The server sent data that is not a chat completion:\n\(firstMalformedPayload)")
        }
        return .cutOff
    }

    /// Whether any reply text has arrived.
    public var hasText: Bool { sawText }

    private mutating func handle(_ event: SSEEvent, into events: inout [ReplyEvent], pendingText: inout String) {
        guard !sawDone else { return }
        func flushText() {
            if !pendingText.isEmpty {
                events.append(.text(pendingText))
                pendingText = ""
            }
        }
        switch event.type {
        case "error":
            let message = errorMessage(inEventData: event.data)
            serverErrors.append(message)
            flushText()
            events.append(.serverError(message))
        case "message":
            let payload = event.data
            if payload == "[DONE]" || payload.utf8.elementsEqual(" [DONE]".utf8) {
                sawDone = true
                flushText()
                if finishReason == nil { events.append(.finished(reason: nil)) }
                return
            }
            guard let json = try? JSONParser.parse(payload), let chunk = ChatCompletionChunk(json) else {
                if firstMalformedPayload == nil { firstMalformedPayload = String(payload.prefix(200)) }
                return
            }
            if let message = chunk.errorMessage {
                serverErrors.append(message)
                flushText()
                events.append(.serverError(message))
                return
            }
            if !startedReported, chunk.model != nil || chunk.hasChoices {
                startedReported = true
                flushText()
                events.append(.started(model: chunk.model, created: chunk.created.map { Date(timeIntervalSince1970: $0) }))
            }
            if let content = chunk.content, !content.isEmpty {
                sawText = true
                pendingText += content
            }
            if let reason = chunk.finishReason {
                finishReason = reason
                flushText()
                events.append(.finished(reason: reason))
            }
        default:
            break  // other named events carry nothing for a chat reply
        }
    }

    private func errorMessage(inEventData data: String) -> String {
        guard let json = try? JSONParser.parse(data) else { return data }
        if let chunk = ChatCompletionChunk(json) {
            if let message = chunk.errorMessage { return message }
            if let content = chunk.content, !content.isEmpty { return content }
        }
        return ServerErrorBody.message(in: json) ?? data
    }
}
