import AgentCore
import Testing

@Suite("A chat's title, from its first message")
struct ChatTitleTests {
    @Test("Markdown's markers do not make it into the title", arguments: [
        ("## Release checklist\n\n- tag\n- build", "Release checklist"),
        ("**Bold** start of a question", "Bold start of a question"),
        ("- buy milk\n- buy bread", "buy milk"),
        ("> quoted words", "quoted words"),
        ("```swift\nlet answer = 42\n```", "let answer = 42"),
        ("[the docs](https://example.com) say `run it`", "the docs say run it"),
        ("Plain first line\nsecond line", "Plain first line"),
        ("   ", "New Chat"),
        ("---", "New Chat"),
    ])
    func markersAreDropped(prompt: String, title: String) {
        #expect(ChatTitle.make(from: prompt) == title)
    }

    @Test func longLinesAreCutAtAWord() {
        let title = ChatTitle.make(from: "Please explain the difference between processes and threads in detail")
        #expect(title == "Please explain the difference between processes…")
    }
}
