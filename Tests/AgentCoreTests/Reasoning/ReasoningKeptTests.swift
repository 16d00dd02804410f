@testable import AgentCore
import Foundation
import Testing

/// A reply's reasoning is kept with it — timed, stored as it streams, exported in JSON — and
/// never goes back to the model, into the answer, or into Markdown.
@Suite("Reasoning kept with its reply")
struct ReasoningKeptTests {
    static let thought = "The user says hello. I should greet them back."

    /// A reply that thought, then answered.
    static func thoughtfulReply(seconds: Double? = 1.5) -> ChatMessage {
        ChatMessage(role: .assistant, text: "Hello! How can I help?", model: "qwen3", time: Date(timeIntervalSince1970: 1_700_000_000),
                    state: .done, reasoning: Reasoning(text: thought, seconds: seconds))
    }

    @Test("The reply's text is the answer alone; the thinking is timed from its first piece to the answer's first")
    func assembledApart() {
        let lifecycle = ReplyLifecycle()
        var user = ChatMessage(role: .user, text: "hi", state: .sending)
        var reply = ReplyLifecycle.placeholder(model: nil)
        _ = lifecycle.receive([.reply(.started(model: "qwen3", created: nil)), .reply(.reasoning("The user ")),
                               .reply(.reasoning("says hello."))], reply: &reply, user: &user)
        #expect(reply.reasoning?.text == "The user says hello.")
        #expect(reply.reasoning?.isOngoing == true, "still thinking")
        #expect(reply.text.isEmpty)
        _ = lifecycle.receive([.reply(.text("Hello!"))], reply: &reply, user: &user)
        let seconds = try? #require(reply.reasoning?.seconds)
        #expect(seconds.map { $0 >= 0 && $0 < 60 } == true)
        _ = lifecycle.receive([.reply(.text(" Hi."))], reply: &reply, user: &user)
        #expect(reply.reasoning?.seconds == seconds, "the answer going on does not change how long it thought")
        _ = lifecycle.settle(.completed, reply: &reply, user: &user)
        #expect(reply.text == "Hello! Hi.")
        #expect(reply.state == .done)
    }

    @Test("Stopped while thinking: the reply stays, with its thinking ended")
    func stoppedWhileThinking() {
        let lifecycle = ReplyLifecycle()
        var user = ChatMessage(role: .user, text: "hi", state: .sending)
        var reply = ReplyLifecycle.placeholder(model: nil)
        _ = lifecycle.receive([.reply(.reasoning("Hmm"))], reply: &reply, user: &user)
        let settled = lifecycle.settle(.stopped, reply: &reply, user: &user)
        #expect(!settled.replyRemoved)
        #expect(reply.state == .stopped)
        #expect(reply.reasoning?.text == "Hmm" && reply.reasoning?.seconds != nil)
    }

    @Test("Stored as it streams, and read back")
    func storedWhileStreaming() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "thinking"))
        let recorder = ReplyRecorder(store: store, chat: chat.id, interval: .zero) { Issue.record("save failed: \($0)") }
        let lifecycle = ReplyLifecycle(userSeq: 0, replySeq: 1, recorder: recorder)
        var user = ChatMessage(role: .user, text: "hi", state: .sending)
        var reply = ReplyLifecycle.placeholder(model: nil)
        _ = lifecycle.receive([.reply(.reasoning(Self.thought))], reply: &reply, user: &user)
        recorder.flush()
        let streaming = try #require(try store.messages(in: chat.id).last?.message)
        #expect(streaming.reasoning?.text == Self.thought && streaming.state == .streaming && streaming.text.isEmpty)
        _ = lifecycle.receive([.reply(.text("Hello!"))], reply: &reply, user: &user)
        _ = lifecycle.settle(.completed, reply: &reply, user: &user)
        recorder.flush()
        let stored = try #require(try store.messages(in: chat.id).last?.message)
        #expect(stored.text == "Hello!" && stored.state == .done)
        #expect(stored.reasoning == reply.reasoning && stored.reasoning?.seconds != nil)
    }

    @Test("After a crash mid-thought, the reply is kept, cut off, with its thinking")
    func crashWhileThinking() throws {
        let file = temporaryDatabase()
        var store: ChatStore? = try ChatStore(file: file)
        let chat = try #require(try store?.createChat(ChatSummary(title: "crash")))
        try store?.save(ChatMessage(role: .user, text: "q", state: .done), in: chat.id, seq: 0)
        try store?.save(ChatMessage(role: .assistant, text: "", state: .streaming, reasoning: Reasoning(text: "Hmm")), in: chat.id, seq: 1)
        store = nil  // the process ends
        let reply = try #require(try ChatStore(file: file).messages(in: chat.id).last?.message)
        #expect(reply.state == .cutOff)
        #expect(reply.reasoning == Reasoning(text: "Hmm"))
    }

    @Test("JSON exports the thinking and imports it back; Markdown leaves it out")
    func exported() throws {
        let chat = ChatArchive.Chat(summary: ChatSummary(title: "Greeting"),
                                    messages: [ChatMessage(role: .user, text: "hi", state: .done), Self.thoughtfulReply()])
        let json = ChatArchive.json([chat])
        #expect(json.contains(Self.thought))
        let parsed = try ChatArchive.parse(json)
        #expect(parsed.first?.messages.last?.reasoning == Reasoning(text: Self.thought, seconds: 1.5))
        let store = try ChatStore(file: temporaryDatabase())
        let imported = try store.importChats(parsed)
        #expect(try store.archive(imported[0].id)?.messages.last?.reasoning == Reasoning(text: Self.thought, seconds: 1.5))
        let copy = try store.importChats(parsed)
        #expect(try store.archive(copy[0].id)?.messages.last?.reasoning?.text == Self.thought, "an import made a copy keeps it too")
        let markdown = ChatArchive.markdown(chat)
        #expect(markdown.contains("Hello! How can I help?"))
        #expect(!markdown.contains("greet them back"))
    }

    @Test("A hostile duration in an import is dropped, the thinking kept")
    func hostileDuration() throws {
        let json = ChatArchive.json([ChatArchive.Chat(summary: ChatSummary(title: "x"), messages: [Self.thoughtfulReply(seconds: 2)])])
            .replacingOccurrences(of: "\"reasoningSeconds\":2", with: "\"reasoningSeconds\":-1e308")
        #expect(try ChatArchive.parse(json).first?.messages.first?.reasoning == Reasoning(text: Self.thought))
    }

    @Test("The thinking never goes back to the model, over either protocol")
    func notSentBack() {
        let round = ChatRound(messages: [ChatMessage(role: .user, text: "hi", state: .done), Self.thoughtfulReply(),
                                         ChatMessage(role: .user, text: "and?", state: .done)])
        for body in [OpenAIRequestBody.make(model: "m", round: round, options: GenerationOptions()),
                     OllamaRequestBody.make(model: "m", round: round, options: GenerationOptions())] {
            let text = body.serialized
            #expect(text.contains("Hello! How can I help?"))
            #expect(!text.contains("greet them back"))
        }
    }
}
