@testable import AgentCore
import Testing

/// How pull lines become one progress: layers summed by digest, the speed over a short window.
@Suite("Ollama pull progress")
struct OllamaPullTrackerTests {
    func line(_ status: String, digest: String? = nil, total: Int? = nil, completed: Int? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("status", .string(status))]
        if let digest { members.append(("digest", .string(digest))) }
        if let total { members.append(("total", .number(Double(total)))) }
        if let completed { members.append(("completed", .number(Double(completed)))) }
        return .object(members)
    }

    @Test func layersAreSummedAndTheSpeedLooksAtTheLastSeconds() throws {
        var tracker = OllamaPullTracker()
        let start = ContinuousClock.now
        let manifest = try tracker.read(line("pulling manifest"), at: start)
        #expect(manifest == OllamaPullProgress(status: "pulling manifest"))
        #expect(manifest?.fraction == nil && manifest?.bytesText == nil)
        _ = try tracker.read(line("pulling aaa", digest: "sha256:aaa", total: 100_000_000), at: start)
        let second = try #require(try tracker.read(line("pulling aaa", digest: "sha256:aaa", total: 100_000_000, completed: 10_000_000),
                                                   at: start + .seconds(1)))
        #expect(second.bytesPerSecond == 10_000_000)
        #expect(second.bytesText == "10.0\u{A0}MB of 100.0\u{A0}MB · 10.0\u{A0}MB/s" && second.percentText == "10%")
        // Five seconds later: only the last three seconds count.
        _ = try tracker.read(line("pulling aaa", digest: "sha256:aaa", total: 100_000_000, completed: 20_000_000), at: start + .seconds(4))
        let late = try #require(try tracker.read(line("pulling aaa", digest: "sha256:aaa", total: 100_000_000, completed: 50_000_000),
                                                 at: start + .seconds(6)))
        #expect(late.bytesPerSecond == 15_000_000)
        let next = try #require(try tracker.read(line("pulling bbb", digest: "sha256:bbb", total: 1_000), at: start + .seconds(6)))
        #expect(next.total == 100_001_000 && next.completed == 50_000_000)
        let done = try #require(try tracker.read(line("pulling aaa", digest: "sha256:aaa", total: 100_000_000, completed: 100_000_000),
                                                 at: start + .seconds(6)))
        #expect(done.fraction == 100_000_000.0 / 100_001_000)
        let small = try #require(try tracker.read(line("pulling ccc", digest: "sha256:ccc", total: 5_000_000), at: start + .seconds(6)))
        #expect(small.fraction == done.fraction, "a layer announced late does not move the bar back")
        let verifying = try #require(try tracker.read(line("verifying sha256 digest"), at: start + .seconds(7)))
        #expect(verifying.bytesPerSecond == nil && verifying.total == 105_001_000)
        #expect(!tracker.succeeded)
        _ = try tracker.read(line("success"), at: start + .seconds(7))
        #expect(tracker.succeeded)
    }

    @Test func anErrorLineThrowsOllamasMessage() {
        var tracker = OllamaPullTracker()
        #expect(throws: OllamaModelError.ollama("pull model manifest: file does not exist")) {
            try tracker.read(.object([("error", .string("pull model manifest: file does not exist"))]), at: .now)
        }
    }
}
