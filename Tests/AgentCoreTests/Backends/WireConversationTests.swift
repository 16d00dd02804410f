@testable import AgentCore
import Testing

@Suite("A reply with tool rounds, as sent back to the server")
struct WireConversationTests {
    func call(_ id: String, offset: Int, round: Int) -> ToolCall {
        ToolCall(id: id, name: "t", arguments: .object([]), result: "r\(id)", textOffset: offset, round: round)
    }

    @Test func roundsAreSplitAtTheirOffsets() {
        let reply = ChatMessage(role: .assistant, text: "Let me check. Done: it is 5.", state: .done,
                                toolCalls: [call("a", offset: 14, round: 0), call("b", offset: 14, round: 0)])
        let wire = WireMessage.expand([ChatMessage(role: .user, text: "q", state: .done), reply])
        #expect(wire == [
            .plain(role: .user, content: "q"),
            .assistantCalls(content: "Let me check. ", calls: [reply.toolCalls[0], reply.toolCalls[1]]),
            .toolResult(reply.toolCalls[0]),
            .toolResult(reply.toolCalls[1]),
            .plain(role: .assistant, content: "Done: it is 5."),
        ])
    }

    @Test("Rounds that added no text stay separate rounds")
    func emptyRounds() {
        let reply = ChatMessage(role: .assistant, text: "ok", state: .done,
                                toolCalls: [call("a", offset: 0, round: 0), call("b", offset: 0, round: 1)])
        let wire = WireMessage.expand([reply])
        #expect(wire == [
            .assistantCalls(content: "", calls: [reply.toolCalls[0]]), .toolResult(reply.toolCalls[0]),
            .assistantCalls(content: "", calls: [reply.toolCalls[1]]), .toolResult(reply.toolCalls[1]),
            .plain(role: .assistant, content: "ok"),
        ])
    }

    @Test("Agent's notices in a reply are left out of every round, the model's words around them kept")
    func noticesAreLeftOut() {
        var reply = ChatMessage(role: .assistant, text: "Let me check.", state: .failed)
        reply.appendNotice("\n\nError: no such tool")
        let offset = reply.text.utf8.count
        reply.text += " It is 5."
        reply.appendNotice("\n\nError: quota exceeded")
        reply.toolCalls = [call("a", offset: offset, round: 0)]
        #expect(WireMessage.expand([reply]) == [
            .assistantCalls(content: "Let me check.", calls: [reply.toolCalls[0]]),
            .toolResult(reply.toolCalls[0]),
            .plain(role: .assistant, content: " It is 5."),
        ])
        var onlyAnError = ChatMessage(role: .assistant, text: "", state: .failed)
        onlyAnError.appendNotice("Error: overloaded")
        #expect(WireMessage.expand([onlyAnError]) == [.plain(role: .assistant, content: "")])
    }

    @Test("A reply with none of the model's words still goes, empty, so user and assistant alternate")
    func emptyRepliesKeepTurnsAlternating() {
        var onlyAnError = ChatMessage(role: .assistant, text: "", state: .stopped)
        onlyAnError.appendNotice("Error: overloaded")
        var onlyThinking = ChatMessage(role: .assistant, text: "", state: .stopped)
        onlyThinking.reasoning = Reasoning(text: "Hmm.")
        let conversation = Conversation(messages: ChatMessage.chained([
            ChatMessage(role: .user, text: "a", state: .done), onlyAnError,
            ChatMessage(role: .user, text: "b", state: .done), onlyThinking,
            ChatMessage(role: .user, text: "c", state: .done),
            ChatMessage(role: .assistant, text: "", state: .sending),
        ]))
        #expect(WireMessage.expand(conversation.context()) == [
            .plain(role: .user, content: "a"), .plain(role: .assistant, content: ""),
            .plain(role: .user, content: "b"), .plain(role: .assistant, content: ""),
            .plain(role: .user, content: "c"),
        ])
    }

    @Test("Stored notices that do not fit the text are dropped, not trusted")
    func storedNoticesAreChecked() {
        let text = "héllo Error: x"
        #expect(ChatMessage.notices(fromJSONText: "[[7, 15]]", in: text) == [7..<15])
        #expect(ChatMessage.notices(fromJSONText: "[[2, 15]]", in: text).isEmpty, "inside the é")
        #expect(ChatMessage.notices(fromJSONText: "[[7, 99]]", in: text).isEmpty, "past the end")
        #expect(ChatMessage.notices(fromJSONText: "[[7, 15], [0, 3]]", in: text) == [7..<15], "out of order")
        #expect(ChatMessage.notices(fromJSONText: "not json", in: text).isEmpty)
    }

    @Test func offsetsFallOnUTF8Boundaries() {
        let reply = ChatMessage(role: .assistant, text: "héllo 👋then", state: .done,
                                toolCalls: [call("a", offset: "héllo 👋".utf8.count, round: 0)])
        #expect(WireMessage.expand([reply]).first == .assistantCalls(content: "héllo 👋", calls: [reply.toolCalls[0]]))
    }
}
