@testable import AgentCore
import Testing

@Suite("A reply's heading")
struct AuthorLabelTests {
    @Test("The model's name in the window, \"Assistant\" when the server named none; exports keep \"assistant (model)\"")
    func headings() {
        let named = ChatMessage(role: .assistant, text: "Hi.", model: "qwen3", state: .done)
        let unnamed = ChatMessage(role: .assistant, text: "Hi.", state: .done)
        #expect(named.authorLabel == "qwen3")
        #expect(unnamed.authorLabel == "Assistant")
        #expect(named.englishAuthorLabel == "assistant (qwen3)")
        #expect(unnamed.englishAuthorLabel == "assistant")
    }
}
