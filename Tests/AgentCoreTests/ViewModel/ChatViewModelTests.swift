import AgentCore
import Foundation
import TestSupport
import Testing

@MainActor
@Suite("Chat view model")
struct ChatViewModelTests {
    let server = TestServer.shared

    func viewModel(_ scenario: String) -> ChatViewModel {
        ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "configured")))
    }

    @Test func sendIsPossibleOnlyWithTextAndNothingInFlight() async {
        let model = viewModel("slow-20")
        #expect(!model.canSend)
        model.draft = "   \n "
        #expect(!model.canSend)
        model.draft = "hello"
        #expect(model.canSend)
        model.send()
        #expect(model.isSending)
        #expect(model.draft.isEmpty)
        model.draft = "next"
        #expect(!model.canSend, "nothing else is sent while a reply streams")
        model.send()
        #expect(model.conversation.count == 2)
        await model.waitUntilIdle()
        #expect(!model.isSending)
        #expect(model.canSend)
    }

    @Test func aReplyStreamsIntoTheConversation() async throws {
        let model = viewModel("slow-20")
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        model.draft = "  Hi there "
        model.send()
        await model.waitUntilIdle()
        let messages = model.conversation.messages
        #expect(messages.map(\.role) == [.user, .assistant])
        #expect(messages[0].text == "Hi there")
        #expect(messages[0].state == .done)
        #expect(messages[1].text == "Streaming reply to: Hi there. One token at a time, as a model writes.")
        #expect(messages[1].state == .done)
        #expect(messages[1].model == "test-model", "the reply names the model the server reports")
        #expect(messages[1].authorLabel == "assistant (test-model)")
        #expect(changes.filter { $0 == .messageChanged(1) }.count > 3, "the reply grows as tokens arrive")
        #expect(!model.showError)
    }

    @Test func everyRequestCarriesTheConversationSoFar() async throws {
        let marker = uniqueMarker()
        let model = viewModel("echo/\(marker)")
        for prompt in ["one", "two", "three"] {
            model.draft = prompt
            model.send()
            await model.waitUntilIdle()
        }
        let requests = try await server.requests(containing: marker)
        let sent = requests.compactMap { ($0["body"] as? [String: Any])?["messages"] as? [[String: String]] }
        #expect(sent.map(\.count) == [1, 3, 5])
        #expect(sent.last?.map { $0["role"] ?? "" } == ["user", "assistant", "user", "assistant", "user"])
        #expect(sent.last?[1]["content"] == "Echo: one (1 messages)")
        #expect(model.conversation.messages.last?.text == "Echo: three (5 messages)")
    }

    @Test("An HTTP error: the alert's message, and the user's text is kept and given back")
    func httpErrorKeepsTheUsersText() async {
        let model = viewModel("http500")
        model.draft = "please answer"
        model.send()
        await model.waitUntilIdle()
        #expect(model.showError)
        #expect(model.errorMessage.contains("500") && model.errorMessage.contains("the model crashed"))
        #expect(model.conversation.messages.map(\.role) == [.user], "no empty reply is left behind")
        #expect(model.conversation[0].text == "please answer")
        #expect(model.conversation[0].state == .failed)
        #expect(model.draft == "please answer")
        model.dismissError()
        #expect(!model.showError && model.errorMessage.isEmpty)
    }

    @Test("A failed message is not sent again as context")
    func failedMessagesAreLeftOutOfContext() async throws {
        let model = viewModel("http500")
        model.draft = "lost"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.context().isEmpty)
    }

    @Test func aCutOffReplyIsKeptAndMarked() async {
        let model = viewModel("cutoff")
        model.draft = "go"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation[1].text == "Half a")
        #expect(model.conversation[1].state == .cutOff)
        #expect(model.conversation[0].state == .done)
        #expect(model.showError && model.errorMessage.contains("cut off"))
        #expect(model.draft.isEmpty, "the message was delivered: nothing to give back")
    }

    @Test func anErrorEventIsAppendedToTheReplyAndReported() async {
        let model = viewModel("errorevent")
        model.draft = "go"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation[1].text == "Partial answer\n\nError: quota exceeded for this key")
        #expect(model.conversation[1].state == .failed)
        #expect(model.errorMessage.contains("quota exceeded"))
    }

    @Test func stopKeepsWhatArrived() async throws {
        let model = viewModel("stall")
        model.draft = "go"
        model.send()
        for _ in 0..<500 where model.conversation[1].text.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        model.stop()
        await model.waitUntilIdle()
        #expect(model.conversation[1].text == "Waiting")
        #expect(model.conversation[1].state == .stopped)
        #expect(!model.showError)
        #expect(!model.isSending)
    }

    @Test func aRefusedConnectionIsReported() async {
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "m")))
        model.draft = "anyone?"
        model.send()
        await model.waitUntilIdle()
        #expect(model.showError)
        #expect(model.errorMessage.contains("127.0.0.1:9"))
        #expect(model.draft == "anyone?")
    }
}
