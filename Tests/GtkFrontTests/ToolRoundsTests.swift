import AgentCore
import CGtk
@testable import GtkFront
import Testing

extension GtkSuites {
    /// A reply's tool calls in its bubble as the reply grows, fed to the bubble as the window
    /// feeds it, frame by frame.
    @MainActor
    @Suite("A reply's tool calls in its bubble")
    struct ToolRoundsTests {
        @Test("A call is added, not the lines made again: a line opened stays open as the next call comes")
        func linesStayOpen() throws {
            try GtkTestHarness.requireDisplay()
            let body = ReplyBody(copyCode: { _, _ in })
            var reply = ChatMessage(role: .assistant, text: "Let me look. ", state: .streaming)
            reply.toolCalls = [ToolCall(id: "a", name: "get_location", arguments: .object([]), textOffset: 13)]
            body.show(reply)
            let line = try #require(body.toolLines.first)
            gtk_expander_set_expanded(line.widget.opaque, 1)

            reply.toolCalls[0].result = "latitude: 48.8566, longitude: 2.3522"
            reply.toolCalls.append(ToolCall(id: "b", name: "get_datetime", arguments: .object([]), textOffset: 13, round: 1))
            body.show(reply)
            reply.text += "Now the time. "
            reply.toolCalls.append(ToolCall(id: "c", name: "get_datetime", arguments: .object([]), textOffset: reply.text.utf8.count, round: 2))
            body.show(reply)
            #expect(body.toolLines.count == 3)
            #expect(body.toolLines.first === line, "the same line")
            #expect(gtk_expander_get_expanded(line.widget.opaque) != 0, "still open")
            #expect(line.summaryText == "Tool get_location() → latitude: 48.8566, longitude: 2.3522")
        }

        @Test("A call's offset inside a character (an imported chat) is taken as that character's start: no half character either side")
        func offsetInsideACharacter() throws {
            try GtkTestHarness.requireDisplay()
            let body = ReplyBody(copyCode: { _, _ in })
            var reply = ChatMessage(role: .assistant, text: "Voilà l’été", state: .done)
            // Between the two bytes of "é".
            let inside = "Voilà l’".utf8.count + 1
            reply.toolCalls = [ToolCall(id: "a", name: "get_datetime", arguments: .object([]), result: "now", textOffset: inside)]
            body.show(reply)
            #expect(body.displayedText == "Voilà l’\n\nété")
        }
    }
}
