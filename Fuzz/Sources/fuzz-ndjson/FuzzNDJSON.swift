import AgentCore
import FuzzSupport

/// The NDJSON line reader never crashes, and finds the same lines however the stream is cut.
func fuzzNDJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    var whole = NDJSONLineSplitter()
    var wholeLines: [[UInt8]] = []
    whole.feed(input.bytes) { wholeLines.append($0) }
    whole.finish { wholeLines.append($0) }

    var split = NDJSONLineSplitter()
    var splitLines: [[UInt8]] = []
    for piece in input.pieces { split.feed(Array(piece)) { splitLines.append($0) } }
    split.finish { splitLines.append($0) }

    fuzzRequire(wholeLines == splitLines, "lines depend on where the stream was cut")
    fuzzRequire(wholeLines.allSatisfy { !$0.contains(0x0A) }, "a line holds a newline")
    return 0
}
