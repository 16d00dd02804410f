@testable import AgentCore
import Foundation
import Testing

@Suite("A conversation finds its messages by id, however it changed")
struct ConversationTests {
    func messages(_ texts: [String]) -> [ChatMessage] {
        texts.map { ChatMessage(role: .user, text: $0, state: .done) }
    }

    /// Every message is found at its place, and nothing else is found.
    func expectIndexed(_ conversation: Conversation, _ gone: [ChatMessage] = []) {
        for (position, message) in conversation.messages.enumerated() {
            #expect(conversation.index(of: message.id) == position, "\(message.text)")
        }
        for message in gone { #expect(conversation.index(of: message.id) == nil, "\(message.text) is gone") }
        #expect(conversation.index(of: UUID()) == nil)
    }

    @Test("Appended, prepended (an earlier page), removed, replaced and updated messages keep their places")
    func places() {
        var conversation = Conversation(messages: messages(["c", "d"]))
        expectIndexed(conversation)
        conversation.append(ChatMessage(role: .assistant, text: "e", state: .done))
        let earlier = messages(["a", "b"])
        conversation.prepend(earlier)
        #expect(conversation.messages.map(\.text) == ["a", "b", "c", "d", "e"])
        expectIndexed(conversation)

        let removed = conversation[1]
        conversation.remove(at: 1)
        expectIndexed(conversation, [removed])

        let replaced = conversation[2]
        conversation[2] = ChatMessage(role: .user, text: "x", state: .done)
        expectIndexed(conversation, [replaced])

        let renamed = conversation[0]
        conversation.update(0) { $0 = ChatMessage(role: .user, text: "y", state: .done) }
        expectIndexed(conversation, [renamed])
        conversation.update(1) { $0.text += "!" }
        expectIndexed(conversation)
        #expect(conversation == Conversation(messages: conversation.messages), "equal by their messages alone")
    }

    @Test("Messages let go of at either end (a long chat's loaded window moving) leave the others at their places")
    func unloadedEnds() {
        var conversation = Conversation(messages: messages(["c", "d", "e", "f"]))
        conversation.prepend(messages(["a", "b"]))
        let first = Array(conversation.messages.prefix(2))
        conversation.removeFirst(2)
        #expect(conversation.messages.map(\.text) == ["c", "d", "e", "f"])
        expectIndexed(conversation, first)
        let last = Array(conversation.messages.suffix(3))
        conversation.removeLast(3)
        #expect(conversation.messages.map(\.text) == ["c"])
        expectIndexed(conversation, last)
        conversation.prepend(first)
        conversation.append(last[0])
        expectIndexed(conversation)
    }

    @Test("A message shown twice (one id) is found at its later place, and at the earlier one once the later is let go of")
    func unloadedDuplicate() {
        let twice = ChatMessage(role: .user, text: "twice", state: .done)
        var conversation = Conversation(messages: [twice] + messages(["b"]) + [twice] + messages(["d"]))
        #expect(conversation.index(of: twice.id) == 2)
        conversation.removeLast(2)
        #expect(conversation.index(of: twice.id) == 0)
        conversation.append(twice)
        conversation.removeFirst(1)
        #expect(conversation.index(of: twice.id) == 1)
    }
}
