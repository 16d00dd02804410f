@testable import AgentCore
import Foundation
import Synchronization
import Testing
import TestSupport

/// Reading aloud through a real speech-dispatcher (started by each test in a temporary home,
/// its voice going to a WAV file) and espeak-ng.
@Suite("Read aloud through speech-dispatcher", .serialized)
struct SpeechDispatcherTests {
    /// What a client reported, in order.
    final class Reports: Sendable {
        private let events = Mutex<[SpeechEvent]>([])
        func append(_ event: SpeechEvent) { events.withLock { $0.append(event) } }
        var all: [SpeechEvent] { events.withLock { $0 } }

        /// The marks reported for `message`, as word indices.
        func marks(of message: Int) -> [Int] {
            all.compactMap { event in
                guard case .mark(message, let name) = event, name.first == "w" else { return nil }
                return Int(name.dropFirst())
            }
        }

        func message(of request: Int) -> Int? {
            all.lazy.compactMap { event -> Int? in
                if case .queued(request, let message) = event { return message }
                return nil
            }.first
        }
    }

    /// Several paragraphs of a sentence each: espeak-ng reads them in a few seconds into a file.
    static func longText(sentences: Int) -> SpokenText {
        SpokenText(segments: (1...sentences).map { "Sentence number \($0) of the reading test, read word by word." })
    }

    @Test("A text is read from BEGIN through its words' index marks, in order, to END, and its voice is written")
    func readsWordByWord() async throws {
        let service = try SpeechService()
        defer { service.stop() }
        let reports = Reports()
        let client = SpeechDispatcherClient(address: service.address, language: "en") { reports.append($0) }
        defer { client.closeNow() }
        let text = SpokenText(segments: ["Hello from the reading test.", "A second paragraph, after a pause."])
        client.speak(text.ssml, request: 1)

        #expect(try await TestTiming.eventually(within: .seconds(30)) {
            reports.message(of: 1).map { message in reports.all.contains(.end(message: message)) } ?? false
        }, "END for the text: \(reports.all)")
        let message = try #require(reports.message(of: 1))
        let ours = reports.all.filter { $0.message == message }
        #expect(ours.first == .begin(message: message) && ours.last == .end(message: message))
        let marks = reports.marks(of: message)
        #expect(marks == Array(0..<text.words.count), "every word's mark, in order: \(marks)")
        #expect(try await TestTiming.eventually(within: .seconds(10)) { service.audioBytes > 10_000 },
                "the voice written to \(service.audioFile.path): \(service.audioBytes) bytes")
    }

    @Test("Cancel ends a text being read: CANCEL, no END, the marks stop short of its end")
    func cancelStops() async throws {
        let service = try SpeechService()
        defer { service.stop() }
        let reports = Reports()
        let client = SpeechDispatcherClient(address: service.address, language: "en") { reports.append($0) }
        defer { client.closeNow() }
        let text = Self.longText(sentences: 1000)
        client.speak(text.ssml, request: 1)
        #expect(try await TestTiming.eventually(within: .seconds(30)) {
            reports.message(of: 1).map { reports.marks(of: $0).count >= 3 } ?? false
        }, "the first words read: \(reports.all)")
        client.cancel()
        let message = try #require(reports.message(of: 1))
        #expect(try await TestTiming.eventually(within: .seconds(30)) { reports.all.contains(.cancel(message: message)) },
                "CANCEL: \(reports.all.suffix(5))")
        #expect(!reports.all.contains(.end(message: message)))
        let marks = reports.marks(of: message)
        #expect(marks == marks.sorted() && (marks.last ?? 0) < text.words.count - 1, "stopped at word \(marks.last ?? -1) of \(text.words.count)")
    }

    @Test("With no service at the address, a request fails at once with libspeechd's reason")
    func noService() async throws {
        let reports = Reports()
        let missing = FileManager.default.temporaryDirectory.appending(path: "agent-no-speech-\(UUID())/speechd.sock").path
        let client = SpeechDispatcherClient(address: SpeechAddress(socketPath: missing, autospawn: false), language: "en") {
            reports.append($0)
        }
        client.speak(SpokenText(segments: ["Hello"]).ssml, request: 4)
        #expect(try await TestTiming.eventually(within: .seconds(10)) { !reports.all.isEmpty })
        guard case .failed(4, let reason) = reports.all.first else {
            Issue.record("expected a failure, got \(reports.all)")
            return
        }
        #expect(reason.contains(missing), "says where it looked: \(reason)")
    }

    @Test("The model follows the words of the reply it reads; reading another reply stops the first; Stop ends it")
    @MainActor
    func readAloudFollowsTheWords() async throws {
        let service = try SpeechService()
        defer { service.stop() }
        let readAloud = ReadAloud(address: service.address, language: "en")
        defer { readAloud.shutDown() }
        var words: [Int] = []
        readAloud.observe { state in
            if case .reading(_, let word?) = state { words.append(word) }
        }
        let first = UUID(), second = UUID()
        let text = Self.longText(sentences: 1000)
        readAloud.read(text, messageID: first)
        #expect(readAloud.readingMessageID == first)
        #expect(try await TestTiming.eventually(within: .seconds(30)) { words.count >= 3 }, "the first words: \(readAloud.state)")
        #expect(words == words.sorted() && Set(words).count == words.count, "forward, one word at a time: \(words)")
        #expect(readAloud.currentWord == text.words[words.last ?? 0])

        words = []
        readAloud.read(SpokenText(segments: ["Another reply, short."]), messageID: second)
        #expect(readAloud.state == .reading(messageID: second, word: nil))
        #expect(try await TestTiming.eventually(within: .seconds(30)) { readAloud.state == .idle }, "to the end: \(readAloud.state)")
        // Reports that come close together reach the main actor as one change (the latest state):
        // under load a short reply's marks and its end can come as one, so its words need not be
        // seen at all; none of the first reply's may be.
        #expect(words.allSatisfy { $0 <= 2 } && words == words.sorted(), "only the second reply's words: \(words)")

        readAloud.read(text, messageID: first)
        #expect(try await TestTiming.eventually(within: .seconds(30)) { words.count > 3 })
        readAloud.stop()
        #expect(readAloud.state == .idle && readAloud.text == nil)
    }

    @Test("With no service the model says why, and the next request tries again")
    @MainActor
    func unavailable() async throws {
        let missing = FileManager.default.temporaryDirectory.appending(path: "agent-no-speech-\(UUID())/speechd.sock").path
        let readAloud = ReadAloud(address: SpeechAddress(socketPath: missing, autospawn: false), language: "en")
        readAloud.read(SpokenText(segments: ["Hello"]), messageID: UUID())
        #expect(try await TestTiming.eventually(within: .seconds(10)) { readAloud.readingMessageID == nil })
        guard case .unavailable(let reason) = readAloud.state else {
            Issue.record("expected unavailable, got \(readAloud.state)")
            return
        }
        #expect(reason.contains("Can't connect"), "libspeechd's reason: \(reason)")
        let again = UUID()
        readAloud.read(SpokenText(segments: ["Hello"]), messageID: again)
        #expect(readAloud.state == .reading(messageID: again, word: nil))
    }
}
