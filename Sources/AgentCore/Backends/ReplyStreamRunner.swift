import FoundationEssentials
import Synchronization

/// Runs one streamed request for any protocol: the transfer, the protocol's decoder on the
/// transfer's thread, and every way the exchange can end mapped to tool calls (a complete
/// round) or a `ChatError`. Cancelling the calling task closes the connection.
enum ReplyStreamRunner {
    private struct State<Decoder: ReplyStreamDecoder> {
        var decoder: Decoder
        var head: HTTPResponseHead?
        var errorBody = Data()
    }

    /// `engine`: the process's own unless a test needs one to itself.
    static func run<Decoder: ReplyStreamDecoder>(_ request: HTTPRequest, decoder: Decoder, engine: TransferEngine = .shared,
                                                 onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws -> [ToolCall] {
        let url = request.url
        let state = Mutex(State(decoder: decoder))
        let error = await HTTPTransfer.run(request, engine: engine,
            head: { head in state.withLock { $0.head = head } },
            continuing: { bytes in
                let (events, overflowed) = state.withLock { state -> ([ReplyEvent], Bool) in
                    guard state.head?.isSuccess == true else {
                        if state.errorBody.count < 64 * 1024 { state.errorBody.append(contentsOf: bytes) }
                        return ([], false)
                    }
                    return (state.decoder.feed(bytes), state.decoder.hasOverflowed)
                }
                for event in events { onEvent(event) }
                // A unit over the stream limit ends the exchange: a server sending endless
                // data without a break is not read on.
                return !overflowed
            })
        let (result, trailing) = state.withLock { state in
            var trailing: [ReplyEvent] = []
            let result = Result {
                try ending(of: &state.decoder, head: state.head, errorBody: state.errorBody, error: error, url: url,
                           trailing: &trailing)
            }
            return (result, trailing)
        }
        for event in trailing { onEvent(event) }
        return try result.get()
    }

    /// How the exchange ended; `trailing` gets the events the decoder still held.
    private static func ending<Decoder: ReplyStreamDecoder>(of decoder: inout Decoder, head: HTTPResponseHead?, errorBody: Data,
                                                             error: TransportError?, url: String,
                                                             trailing: inout [ReplyEvent]) throws -> [ToolCall] {
        if let head, !head.isSuccess {
            throw ChatError.http(head, url: url, body: errorBody)
        }
        switch error {
        case .cancelled:
            guard decoder.hasOverflowed else { return [] }
            throw ChatError.server(message: StreamLimit.message)
        case .stalled(let seconds):
            throw ChatError.stalled(url: url, seconds: seconds)
        case .failed(_, let message):
            guard head != nil else { throw ChatError.transport(url: url, message: message, cause: error?.cause) }
            let end = decoder.finish()
            trailing = end.events
            if case .failed(let serverMessage) = end.outcome { throw ChatError.server(message: serverMessage) }
            throw ChatError.cutOff(url: url, detail: message)
        case nil:
            let end = decoder.finish()
            trailing = end.events
            switch end.outcome {
            case .complete(let toolCalls): return toolCalls
            case .cutOff: throw ChatError.cutOff(url: url, detail: nil)
            case .failed(let message): throw ChatError.server(message: message)
            }
        }
    }
}
