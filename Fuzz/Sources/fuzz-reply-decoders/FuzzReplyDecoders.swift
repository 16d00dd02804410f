import AgentCore
import FuzzSupport

/// The three reply decoders (OpenAI SSE, Ollama NDJSON, the llmtools harness) never crash on
/// any stream, and report the same reply however it is cut.
func fuzzReplyDecoders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    check(OpenAIStreamDecoder(), input)
    check(OllamaStreamDecoder(), input)
    check(HarnessStreamDecoder(), input)
    return 0
}

private func check<Decoder: ReplyStreamDecoder>(_ fresh: Decoder, _ input: FuzzInput) {
    var whole = fresh
    var wholeEvents = whole.feed(input.bytes)
    let wholeEnd = whole.finish()
    wholeEvents = merged(wholeEvents + wholeEnd.events)
    let wholeOutcome = wholeEnd.outcome

    var split = fresh
    var splitEvents: [ReplyEvent] = []
    for piece in input.pieces { splitEvents += split.feed(Array(piece)) }
    let splitEnd = split.finish()
    splitEvents += splitEnd.events
    let splitOutcome = splitEnd.outcome

    fuzzRequire(wholeEvents == merged(splitEvents), "\(Decoder.self): events depend on where the stream was cut")
    fuzzRequire(wholeOutcome == splitOutcome, "\(Decoder.self): the outcome depends on where the stream was cut")
}

/// Events with neighbouring text joined: how text is batched is the decoder's business.
private func merged(_ events: [ReplyEvent]) -> [ReplyEvent] {
    var result: [ReplyEvent] = []
    for event in events {
        if case .text(let more) = event, case .text(let text)? = result.last {
            result[result.count - 1] = .text(text + more)
        } else {
            result.append(event)
        }
    }
    return result
}
