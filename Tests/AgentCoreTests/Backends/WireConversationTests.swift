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

    @Test func offsetsFallOnUTF8Boundaries() {
        let reply = ChatMessage(role: .assistant, text: "héllo 👋then", state: .done,
                                toolCalls: [call("a", offset: "héllo 👋".utf8.count, round: 0)])
        #expect(WireMessage.expand([reply]).first == .assistantCalls(content: "héllo 👋", calls: [reply.toolCalls[0]]))
    }
}
