@testable import AgentCore
import Foundation
import Testing

/// How a turn settles its two messages, for every ending: what is kept, and whether the
/// question got through.
@Suite("A turn's settling")
struct ReplyLifecycleTests {
    /// Settles a turn that received `events` and ended with `ending`; the states of the
    /// question and the reply (nil: removed) and whether the question goes back to the entry.
    func settle(after events: [ReplyEvent], _ ending: ReplyLifecycle.Ending, answered: Bool = false)
        -> (user: MessageState, reply: MessageState?, givenBack: Bool) {
        let lifecycle = ReplyLifecycle(answered: answered)
        var user = ChatMessage(role: .user, text: "q", state: answered ? .done : .sending)
        var reply = ReplyLifecycle.placeholder(model: nil)
        if !events.isEmpty { _ = lifecycle.receive(events.map(ChatTurn.Event.reply), reply: &reply, user: &user) }
        let settlement = lifecycle.settle(ending, reply: &reply, user: &user)
        return (user.state, settlement.replyRemoved ? nil : reply.state, settlement.userUndelivered)
    }

    struct Failure: Error {}

    @Test("Completed, stopped or failed; with words, with nothing, or before anything came")
    func everyEnding() {
        let words: [ReplyEvent] = [.text("Hello")]
        let nothing: [ReplyEvent] = [.text("")]
        // Words came: the question was answered, whatever the ending; the reply is kept.
        #expect(settle(after: words, .completed) == (.done, .done, false))
        #expect(settle(after: words, .stopped) == (.done, .stopped, false))
        #expect(settle(after: words, .failed(Failure())) == (.done, .failed, false))
        // The server began, but no word came.
        #expect(settle(after: nothing, .completed) == (.done, nil, false), "an empty answer is the model's")
        #expect(settle(after: nothing, .stopped) == (.done, nil, false), "the user stopped it: nothing to give back")
        #expect(settle(after: nothing, .failed(Failure())) == (.failed, nil, true), "nothing got through")
        // Nothing at all came.
        #expect(settle(after: [], .completed) == (.failed, nil, true))
        #expect(settle(after: [], .stopped) == (.done, nil, false))
        #expect(settle(after: [], .failed(Failure())) == (.failed, nil, true))
        // Only the server's error came (shown in the reply as Agent's notice).
        let error: [ReplyEvent] = [.serverError("overloaded")]
        #expect(settle(after: error, .failed(Failure())) == (.failed, nil, true), "the alert says it; the question goes back")
        #expect(settle(after: error, .stopped) == (.done, .stopped, false), "stopped after it: the error stays in sight")
        #expect(settle(after: words + error, .failed(Failure())) == (.done, .failed, false), "the model's words are kept")
        // A reply asked for again: the question was answered before, and stays so.
        #expect(settle(after: nothing, .failed(Failure()), answered: true) == (.done, nil, false))
        #expect(settle(after: [], .failed(Failure()), answered: true) == (.done, nil, false))
    }
}
