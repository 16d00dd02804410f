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
        // The server holds the reply after its first word until released: the reply is seen to grow.
        let scenario = server.gate()
        let model = viewModel(scenario)
        var changes: [ChatViewModel.Change] = []
        model.observe { changes.append($0) }
        model.draft = "  Hi there "
        model.send()
        _ = try await TestTiming.eventually { model.conversation.count == 2 && !model.conversation[1].text.isEmpty }
        #expect(model.conversation.count == 2 && model.conversation[1].text == "Streaming", "the first word, while the server holds the rest")
        #expect(model.conversation.count == 2 && model.conversation[1].state == .streaming)
        let changedBeforeRelease = changes.filter { $0 == .messageChanged(1) }.count
        try await server.release(scenario)
        await model.waitUntilIdle()
        let messages = model.conversation.messages
        #expect(messages.map(\.role) == [.user, .assistant])
        #expect(messages[0].text == "Hi there")
        #expect(messages[0].state == .done)
        #expect(messages[1].text == "Streaming reply to: Hi there. One token at a time, as a model writes.")
        #expect(messages[1].state == .done)
        #expect(messages[1].model == "test-model", "the reply names the model the server reports")
        #expect(messages[1].authorLabel == "test-model", "the heading is the model's name")
        #expect(changedBeforeRelease >= 1, "the first word was shown")
        #expect(changes.filter { $0 == .messageChanged(1) }.count > changedBeforeRelease, "and the rest as it arrived")
        #expect(!model.status.showError)
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
        #expect(model.status.showError)
        #expect(model.status.errorMessage.contains("500") && model.status.errorMessage.contains("the model crashed"))
        #expect(model.conversation.messages.map(\.role) == [.user], "no empty reply is left behind")
        #expect(model.conversation[0].text == "please answer")
        #expect(model.conversation[0].state == .failed)
        #expect(model.draft == "please answer")
        #expect(model.status.errorHeading == nil, "the server's error: headed LLM Error")
        model.status.report("A file could not be read", heading: "Could Not Attach File")
        #expect(model.status.errorHeading == "Errors", "two kinds of error in one alert")
        #expect(model.status.errorMessage.hasSuffix("\n\nA file could not be read"))
        model.status.dismissError()
        #expect(!model.status.showError && model.status.errorMessage.isEmpty)
    }

    @Test("An error event before any word of the reply: the alert says it, the question is given back, a retry takes its place")
    func anErrorBeforeAnyWordGivesTheQuestionBack() async throws {
        let marker = uniqueMarker()
        let model = viewModel("erroronly/\(marker)")
        model.draft = "please answer"
        model.send()
        await model.waitUntilIdle()
        #expect(model.status.showError && model.status.errorMessage.contains("the model is overloaded"))
        #expect(model.conversation.messages.map(\.role) == [.user], "no reply made only of the error is left behind")
        #expect(model.conversation[0].state == .failed)
        #expect(model.draft == "please answer")
        model.status.dismissError()
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.map(\.role) == [.user], "the retry took the failed message's place")
        let sent = try await server.requests(containing: marker).map { request in
            ((request["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []).map { $0["role"] as? String ?? "" }
        }
        #expect(sent == [["user"], ["user"]])
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
        #expect(model.status.showError && model.status.errorMessage.contains("cut off"))
        #expect(model.draft.isEmpty, "the message was delivered: nothing to give back")
    }

    @Test func anErrorEventIsAppendedToTheReplyAndReported() async {
        let model = viewModel("errorevent")
        model.draft = "go"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation[1].text == "Partial answer\n\nError: quota exceeded for this key")
        #expect(model.conversation[1].state == .failed)
        #expect(model.status.errorMessage.contains("quota exceeded"))
    }

    @Test("A server's error shown in a reply is never sent back as the model's words, nor after the chat reopens")
    func anErrorInAReplyStaysOutOfTheContext() async throws {
        let marker = uniqueMarker()
        let database = temporaryDatabase()
        let connection = ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("errorevent/\(marker)"), model: "m"))
        let model = ChatViewModel(connection: connection, store: try ChatStore(file: database))
        model.draft = "go"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation[1].text == "Partial answer\n\nError: quota exceeded for this key")
        model.draft = "again"
        model.send()
        await model.waitUntilIdle()
        let chatID = try #require(model.chat?.id)
        model.finishSaving()
        let reopened = ChatViewModel(connection: connection, store: try ChatStore(file: database))
        try reopened.open(chatID)
        #expect(reopened.conversation[1].text == "Partial answer\n\nError: quota exceeded for this key", "the error is still shown")
        reopened.draft = "once more"
        reopened.send()
        await reopened.waitUntilIdle()
        let requests = try await server.requests(containing: marker)
        let sent = requests.map { request in
            ((request["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []).map { $0["content"] as? String ?? "" }
        }
        #expect(sent == [["go"], ["go", "Partial answer", "again"],
                         ["go", "Partial answer", "again", "Partial answer", "once more"]])
    }

    @Test func stopKeepsWhatArrived() async throws {
        let model = viewModel("stall")
        model.draft = "go"
        model.send()
        // The shared test server may be busy with another suite's 10 MB reply: eventually waits long.
        try #require(try await TestTiming.eventually { model.conversation.count == 2 && !model.conversation[1].text.isEmpty },
                     "the first token arrived")
        model.stop()
        await model.waitUntilIdle()
        #expect(model.conversation[1].text == "Waiting")
        #expect(model.conversation[1].state == .stopped)
        #expect(!model.status.showError)
        #expect(!model.isSending)
    }

    @Test func aRefusedConnectionIsReported() async {
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "m")))
        model.draft = "anyone?"
        model.send()
        await model.waitUntilIdle()
        #expect(model.status.showError)
        #expect(model.status.errorMessage.contains("127.0.0.1:9"))
        #expect(model.draft == "anyone?")
    }
}

@MainActor
@Suite("Chat view model with tools")
struct ChatViewModelToolTests {
    let server = TestServer.shared

    /// A view model over the test server's `scenario`, its location asked of the consent
    /// broker and then of `source`, and the settings its location tool keeps the answer in.
    func locationModel(_ scenario: String, source: (any LocationSource)? = nil) throws -> (ChatViewModel, SettingsStore) {
        let consent = ConsentBroker()
        let settings = try TestTools.settings()
        let toolbox = Toolbox.standard(settings: settings, locationSource: source, askConsent: { await consent.ask() })
        return (ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "m"),
                                                         toolbox: toolbox),
                              consent: consent), settings)
    }

    @Test("get_location asks through the view model; the answer reaches the tool; the call is kept in the reply")
    func consentThroughTheViewModel() async throws {
        let marker = uniqueMarker()
        let (model, settings) = try locationModel("tools-single/\(marker)")
        var asked = 0
        model.observe { change in
            if change == .consentRequested {
                asked += 1
                model.status.consent.answer(.deny)
            }
        }
        model.draft = "Where am I?"
        model.send()
        await model.waitUntilIdle()
        #expect(asked == 1)
        let reply = model.conversation[1]
        #expect(reply.state == .done)
        #expect(reply.toolCalls.count == 1)
        #expect(reply.toolCalls.first?.name == "get_location")
        #expect(reply.toolCalls.first?.result == "Error: the user declined to share their location")
        #expect(reply.toolCalls.first?.failed == true)
        #expect(reply.text == "Tool results: Error: the user declined to share their location")
        let followUp = try await server.requests(containing: marker).last
        let messages = (followUp?["body"] as? [String: Any])?["messages"] as? [[String: Any]]
        #expect(messages?.last?["content"] as? String == "Error: the user declined to share their location")
        #expect(!settings.locationAlwaysAllowed)
    }

    @Test("Stop while the first of two calls asks: no question for the second, no tool runs, the reply ends stopped")
    func stopWhileAsking() async throws {
        let marker = uniqueMarker()
        let source = CountingLocationSource()
        // The model calls get_location twice in one round.
        let (model, _) = try locationModel("tools-twoasks/\(marker)", source: source)
        var asked = 0
        model.observe { change in
            guard change == .consentRequested else { return }
            asked += 1
            // Stop at the first question; a later one is answered, so a failing run still ends.
            if asked == 1 { model.stop() } else { model.status.consent.answer(.allowOnce) }
        }
        model.draft = "Where am I?"
        model.send()
        await model.waitUntilIdle()
        #expect(asked == 1, "no question after Stop")
        #expect(source.asked == 0, "GeoClue was not asked")
        let reply = try #require(model.conversation.messages.last)
        #expect(reply.state == .stopped)
        #expect(reply.toolCalls.map(\.id) == ["call_a"], "the second call never ran")
        #expect(reply.toolCalls.first?.result == "Error: the user declined to share their location")
        #expect(try await server.requests(containing: marker).count == 1, "nothing went back to the model")
    }

    @Test("Always Allow then Stop at once: the answer is kept, but GeoClue is not asked, for this call nor the next")
    func stopAfterAlwaysAllow() async throws {
        let marker = uniqueMarker()
        let source = CountingLocationSource()
        let (model, settings) = try locationModel("tools-twoasks/\(marker)", source: source)
        var asked = 0
        model.observe { change in
            guard change == .consentRequested else { return }
            asked += 1
            // Answered and stopped in one turn of the main actor: the tool, which keeps
            // "always" on the main actor before it goes on, finds itself stopped.
            model.status.consent.answer(.allowAlways)
            model.stop()
        }
        model.draft = "Where am I?"
        model.send()
        await model.waitUntilIdle()
        #expect(asked == 1)
        #expect(source.asked == 0, "GeoClue was not asked after Stop")
        #expect(settings.locationAlwaysAllowed, "the answer is kept")
        let reply = try #require(model.conversation.messages.last)
        #expect(reply.state == .stopped)
        #expect(reply.toolCalls.map(\.id) == ["call_a"], "the second call never ran")
    }

    @Test("The next turn sends the earlier tool rounds back as they happened")
    func toolRoundsStayInContext() async throws {
        let marker = uniqueMarker()
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("tools-several/\(marker)"),
                                                                                    model: "m"), toolbox: try TestTools.toolbox()))
        model.draft = "first"
        model.send()
        await model.waitUntilIdle()
        model.draft = "second"
        model.send()
        await model.waitUntilIdle()
        let requests = try await server.requests(containing: marker)
        let last = (requests.last?["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
        #expect(last.map { $0["role"] as? String } == ["user", "assistant", "tool", "tool", "assistant", "user", "assistant", "tool", "tool"])
        #expect((last[4]["content"] as? String)?.hasPrefix("Tool results: latitude: 48.8566") == true)
    }

    @Test("An unknown tool: the alert, the note in the reply, and the reply still completes")
    func unknownToolIsReported() async throws {
        let marker = uniqueMarker()
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("tools-unknown/\(marker)"), model: "m"),
                                                             toolbox: try TestTools.toolbox()))
        model.draft = "go"
        model.send()
        await model.waitUntilIdle()
        #expect(model.status.showError)
        #expect(model.status.errorMessage.contains("launch_rocket"))
        #expect(model.conversation[1].state == .done)
        #expect(model.conversation[1].text.contains("Error: The model called a tool Agent does not have"))
        let followUp = try #require(try await server.requests(containing: marker).last)
        let messages = (followUp["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
        let said = messages.filter { $0["role"] as? String == "assistant" }.map { $0["content"] as? String ?? "" }
        #expect(said == [""], "the note in the reply is Agent's, not the model's")
    }

    @Test("The round cap: the reply is kept, marked cut off, and the cap is reported")
    func roundCap() async throws {
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("tools-loop"), model: "m"),
                                                             toolbox: try TestTools.toolbox()))
        model.draft = "loop"
        model.send()
        await model.waitUntilIdle()
        try #require(model.conversation.count == 2, "a reply made only of tool calls is kept")
        #expect(model.conversation[1].state == .cutOff)
        #expect(model.conversation[1].toolCalls.count == 8)
        #expect(model.status.errorMessage.contains("8 rounds"))
    }
}
