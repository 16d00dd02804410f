@testable import AgentCore
import Foundation
import TestSupport
import Testing

@Suite("Saving a streaming reply")
struct ReplyRecorderTests {
    @Test("At most one write an interval, and the latest text is always saved once the interval is up")
    func throttled() async throws {
        // The two quick updates must come while the first save's interval still runs; on a
        // machine so loaded that even seeing the first save took half the interval, the
        // round proves nothing and runs again (never skipped: five such rounds fail).
        for _ in 0..<5 {
            if try await throttledRound() { return }
        }
        Issue.record("the first save was never seen within half the interval: the throttle was not tested")
    }

    /// One round of `throttled`; false when it could not test the throttle.
    private func throttledRound() async throws -> Bool {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "r"))
        // Longer than the app's second: under the sanitizer and a parallel suite, seeing the
        // first save can take more than a second.
        let interval = Duration.seconds(4)
        let recorder = ReplyRecorder(store: store, chat: chat.id, interval: interval) { Issue.record($0) }
        var reply = ChatMessage(role: .assistant, text: "a", state: .streaming)
        let firstUpdate = ContinuousClock.now
        recorder.update(seq: 0, starting: reply) { _ in }
        var first = ""
        for _ in 0..<(1000 * TestTiming.scale) where first != "a" {
            try await Task.sleep(for: .milliseconds(2))
            first = try store.messages(in: chat.id).first?.message.text ?? ""
        }
        #expect(first == "a", "the first update is saved at once")
        guard ContinuousClock.now - firstUpdate < interval / 2 else {
            recorder.flush()
            return false
        }
        recorder.update(seq: 0, starting: reply) { $0.text += "b" }
        recorder.update(seq: 0, starting: reply) { $0.text += "c" }
        // The first save began after `firstUpdate`, so the next may begin no sooner than the
        // interval after it (less the delay's rounding to milliseconds): the first read
        // showing "abc" ends later than that, however loaded the machine. Until then every
        // read shows "a" — never a save per update.
        var saved = ""
        var seen: Set<String> = []
        for _ in 0..<(1000 * TestTiming.scale) where saved != "abc" {
            try await Task.sleep(for: .milliseconds(10))
            saved = try store.messages(in: chat.id).first?.message.text ?? ""
            seen.insert(saved)
        }
        let landed = ContinuousClock.now - firstUpdate
        #expect(landed >= interval - .milliseconds(2), "updates within the interval wait: \"abc\" was saved \(landed) after the first save")
        #expect(seen.isSubset(of: ["a", "abc"]), "the two updates were saved together: \(seen)")
        #expect(saved == "abc", "the latest text landed when the interval was up, with no further update")
        reply.text = "abcd"
        reply.state = .done
        recorder.finish(reply, seq: 0)
        recorder.update(seq: 0, starting: reply) { $0.text = "late" }
        recorder.flush()
        let final = try #require(try store.messages(in: chat.id).first?.message)
        #expect(final.text == "abcd" && final.state == .done, "finish saved; the late update was ignored")
        return true
    }

    @Test("The recorder's own copy follows the reply event by event: a save mid-stream holds the reply as it stood")
    func copyFollowsTheReply() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "r"))
        let recorder = ReplyRecorder(store: store, chat: chat.id, interval: .zero) { Issue.record($0) }
        let lifecycle = ReplyLifecycle(userSeq: 0, replySeq: 1, recorder: recorder)
        var user = ChatMessage(role: .user, text: "hi", state: .sending)
        var reply = ReplyLifecycle.placeholder(model: "m")
        let call = ToolCall(id: "c1", name: "get_datetime", arguments: .object([]))
        var finished = call
        finished.result = "noon"
        let batches: [[ChatTurn.Event]] = [
            [.reply(.started(model: "served-model", created: nil)), .reply(.reasoning("Let me "))],
            [.reply(.reasoning("think.")), .reply(.text("It is "))],
            [.toolStarted(call)],
            [.toolFinished(finished), .reply(.text("noon")), .reply(.text(", as asked."))],
        ]
        for batch in batches {
            _ = lifecycle.receive(batch, reply: &reply, user: &user)
            recorder.flush()
            let stored = try #require(try store.messages(in: chat.id).first { $0.message.id == reply.id }?.message)
            #expect(stored.text == reply.text)
            #expect(stored.model == reply.model)
            #expect(stored.reasoning?.text == reply.reasoning?.text)
            #expect(stored.toolCalls == reply.toolCalls)
            #expect(stored.state == .streaming)
        }
        #expect(reply.text == "It is noon, as asked.")
    }

    @Test("The thread that streams never writes: saves wait on the recorder's queue, in order")
    func savesOffTheCallersThread() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "r"))
        let recorder = ReplyRecorder(store: store, chat: chat.id) { Issue.record($0) }
        // The queue is held busy, as by a save of megabytes.
        let busy = DispatchSemaphore(value: 0)
        recorder.then { _ in busy.wait() }
        var reply = ChatMessage(role: .assistant, text: "first", state: .streaming)
        recorder.update(seq: 0, starting: reply) { _ in }
        reply.text = "first and last"
        reply.state = .done
        recorder.finish(reply, seq: 0)
        let touched = Date(timeIntervalSince1970: 2_000_000_000)
        recorder.then { try $0.touchChat(chat.id, at: touched) }
        #expect(try store.messages(in: chat.id).isEmpty, "nothing was written on this thread")
        busy.signal()
        recorder.flush()
        let saved = try #require(try store.messages(in: chat.id).first?.message)
        #expect(saved.text == "first and last" && saved.state == .done)
        #expect(try store.chat(chat.id)?.updated == touched, "what came after the reply ran after its save")
    }
}
