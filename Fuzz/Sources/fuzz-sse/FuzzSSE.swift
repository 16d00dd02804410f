import AgentCore
import FuzzSupport

/// The SSE parser never crashes, and finds the same events however the stream is cut.
func fuzzSSE(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    var whole = SSEParser()
    var wholeEvents: [SSEEvent] = []
    whole.feed(input.bytes) { wholeEvents.append($0) }
    whole.finish()

    var split = SSEParser()
    var splitEvents: [SSEEvent] = []
    for piece in input.pieces { split.feed(Array(piece)) { splitEvents.append($0) } }
    split.finish()

    fuzzRequire(wholeEvents == splitEvents, "events depend on where the stream was cut")
    fuzzRequire(whole.reconnectionTime == split.reconnectionTime, "retry depends on where the stream was cut")
    return 0
}
