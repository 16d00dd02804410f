@testable import AgentCore
import Testing

@Suite("What a screen reader hears when a reply finishes")
struct ReplyAnnouncementTests {
    @Test("The reply's plain words: no emphasis marks, fences or link targets")
    func plainText() {
        let blocks = MarkdownParser.parse("""
            # Title

            Some **bold** and a [link](https://example.com/x).

            - one
            - two

            ```swift
            let x = 1
            ```
            """)
        #expect(blocks.plainText == "Title\nSome bold and a link.\none\ntwo\nlet x = 1")
    }

    @Test("Who wrote it and how it starts, cut after a whole word")
    func announcement() {
        var reply = ChatMessage(role: .assistant, text: "**Hello** there.\n\nSecond *line*.", state: .done)
        reply.model = "SmolLM2"
        #expect(ReplyAnnouncement.text(for: reply) == "Reply from SmolLM2 finished: Hello there. Second line.")
        reply.model = nil
        #expect(ReplyAnnouncement.text(for: reply) == "Reply finished: Hello there. Second line.")
        let long = String(repeating: "word ", count: 100)
        let preview = ReplyAnnouncement.preview(of: long)
        #expect(preview.count <= ReplyAnnouncement.previewLength + 1 && preview.hasSuffix("word…"))
    }
}
