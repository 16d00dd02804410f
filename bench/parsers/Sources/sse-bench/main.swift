import AgentCore
import Foundation

/// Prints `agent SECONDS` and `seed SECONDS` for the same stream: TOKENS one-word chunks in
/// the shape llama-server sends, cut into 16 KB reads. Best of RUNS each, alternating.
let tokens = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200_000 : 200_000
let runs = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 5 : 5

var stream = Array(#"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}"#.utf8) + [10, 10]
let chunk = Array(#"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" tok"},"finish_reason":null}]}"#.utf8) + [10, 10]
for _ in 0..<tokens { stream += chunk }
stream += Array(#"data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#.utf8) + [10, 10]
stream += Array("data: [DONE]\n\n".utf8)
let reads = stride(from: 0, to: stream.count, by: 16_384).map { Array(stream[$0..<min(stream.count, $0 + 16_384)]) }
let expected = String(repeating: " tok", count: tokens)

func agent() -> String {
    var decoder = OpenAIStreamDecoder()
    var text = ""
    for read in reads {
        for event in decoder.feed(read) {
            if case .text(let piece) = event { text += piece }
        }
    }
    _ = decoder.finish()
    return text
}

func timed(_ body: () async -> String) async -> Double {
    let start = ContinuousClock.now
    let text = await body()
    let elapsed = ContinuousClock.now - start
    precondition(text == expected, "the parser lost text")
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

var ours: [Double] = []
var seed: [Double] = []
for _ in 0..<runs {
    ours.append(await timed { agent() })
    seed.append(await timed { await SeedStyleParser.collect(reads) })
}
print("bytes \(stream.count)")
print("agent \(ours.min() ?? 0)")
print("seed \(seed.min() ?? 0)")
