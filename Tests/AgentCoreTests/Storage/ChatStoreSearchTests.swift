@testable import AgentCore
import Foundation
import Testing

/// Full-text search over titles and messages: by word prefix, snippets as plain words, and
/// the words matched marked for the results list.
@Suite("Chat store search (FTS5)")
struct ChatStoreSearchTests {
    @Test func fullTextSearchFindsTitlesAndMessagesByWordPrefix() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let a = try store.createChat(ChatSummary(title: "Gardening plans"))
        let b = try store.createChat(ChatSummary(title: "Travel"))
        try store.save(ChatMessage(role: .user, text: "Which tomatoes grow best in shade?", state: .done), in: a.id, seq: 0)
        let hit = ChatMessage(role: .assistant, text: "Cherry tomatoes tolerate partial shade.", state: .done)
        try store.save(hit, in: a.id, seq: 1)
        try store.save(ChatMessage(role: .user, text: "Trains from Paris to Rome", state: .done), in: b.id, seq: 0)
        let results = try store.search("cherry toma")
        #expect(results.map(\.messageID) == [hit.id])
        #expect(results.first?.chatTitle == "Gardening plans")
        #expect(results.first?.snippet.contains("Cherry tomatoes") == true)
        #expect(try store.search("garden").first?.chatID == a.id)
        #expect(try store.search("rome").first?.chatID == b.id)
        #expect(try store.search("   ").isEmpty)
    }

    @Test("A snippet is plain words on one line: no Markdown marks, no line breaks")
    func snippetsArePlainAndOnOneLine() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "Strings"))
        try store.save(ChatMessage(role: .assistant, text: "## Reversing a string\n\nUse **`reversed()`**:\n\n```swift\nlet r = String(s.reversed())\n```",
                                   state: .done), in: chat.id, seq: 0)
        let snippet = try #require(try store.search("reversing").first?.snippet)
        #expect(snippet == "Reversing a string Use reversed(): let r = String(s.reversed())")
    }

    @Test("The words a search matched are marked: in a snippet through its Markdown, and in a title with accents")
    func matchedWordsAreMarked() throws {
        let store = try ChatStore(file: temporaryDatabase())
        let chat = try store.createChat(ChatSummary(title: "Café société"))
        try store.save(ChatMessage(role: .assistant, text: "## Reversing a string\n\nUse **`reversed()`**:\n\n```swift\nlet r = String(s.reversed())\n```",
                                   state: .done), in: chat.id, seq: 0)
        let hit = try store.search("revers").first
        #expect(hit?.snippet == "Reversing a string Use reversed(): let r = String(s.reversed())", "no marks left in the text")
        #expect(hit?.matchedWords == ["Reversing", "reversed", "reversed"])
        let title = try store.search("cafe soc").first
        #expect(title?.messageID == nil && title?.snippet == "Café société")
        #expect(title?.matchedWords == ["Café", "société"], "matched as the search matches, accents and all")
    }
}
