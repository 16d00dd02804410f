import Foundation
import Synchronization

/// Streams replies from an OpenAI-compatible `chat/completions` endpoint (llama.cpp,
/// vLLM, LM Studio, OpenAI) or the seed's harness (`/llmprompt`), over Server-Sent Events.
public struct OpenAIChatClient: ChatBackend {
    public let endpoint: ChatEndpoint
    public let options: GenerationOptions

    public init(endpoint: ChatEndpoint, options: GenerationOptions = GenerationOptions()) {
        self.endpoint = endpoint
        self.options = options
    }

    public func streamReply(to messages: [ChatMessage], onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws {
        let url = endpoint.url
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw ChatError.invalidURL(endpoint.serverURL)
        }
        let body = try JSONEncoder().encode(ChatCompletionRequest(model: endpoint.model, conversation: messages, options: options))
        let request = HTTPRequest(
            url: url, method: "POST",
            headers: [("Content-Type", "application/json; charset=utf-8"), ("Accept", "text/event-stream")],
            body: body, bearerToken: endpoint.apiKey?.value, caFile: endpoint.caFile)
        try await Self.stream(request, decoder: ChatStreamDecoder(), onEvent: onEvent)
    }

    /// Runs `request` and decodes its SSE body with `decoder`, handing events to `onEvent`
    /// on the transfer's thread and mapping every way the exchange can end to a normal
    /// return or a `ChatError`. Cancelling the calling task closes the connection.
    static func stream(_ request: HTTPRequest, decoder: ChatStreamDecoder,
                       onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws {
        struct State {
            var decoder: ChatStreamDecoder
            var head: HTTPResponseHead?
            var errorBody = Data()
        }
        let url = request.url
        let state = Mutex(State(decoder: decoder))
        let error = await HTTPTransfer.run(request,
            head: { head in state.withLock { $0.head = head } },
            body: { bytes in
                let events = state.withLock { state -> [ReplyEvent] in
                    guard state.head?.isSuccess == true else {
                        if state.errorBody.count < 64 * 1024 { state.errorBody.append(contentsOf: bytes) }
                        return []
                    }
                    return state.decoder.feed(bytes)
                }
                for event in events { onEvent(event) }
            })
        let failure = state.withLock { state in
            Self.ending(of: &state.decoder, head: state.head, errorBody: state.errorBody, error: error, url: url)
        }
        if let failure { throw failure }
    }

    private static func ending(of decoder: inout ChatStreamDecoder, head: HTTPResponseHead?, errorBody: Data,
                               error: TransportError?, url: String) -> (any Error)? {
        if let head, !head.isSuccess {
            let message = ServerErrorBody.message(inBody: errorBody)
            return ChatError.http(status: head.status, reason: head.reason, url: url,
                                  message: message.isEmpty ? head.reason : message)
        }
        switch error {
        case .cancelled:
            return nil
        case .failed(_, let message):
            guard head != nil else { return ChatError.transport(url: url, message: message) }
            if case .failed(let serverMessage) = decoder.finish() { return ChatError.server(message: serverMessage) }
            return ChatError.cutOff(url: url, detail: message)
        case nil:
            switch decoder.finish() {
            case .complete: return nil
            case .cutOff: return ChatError.cutOff(url: url, detail: nil)
            case .failed(let message): return ChatError.server(message: message)
            }
        }
    }
}
