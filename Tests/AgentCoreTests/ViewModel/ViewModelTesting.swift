@testable import AgentCore
import Foundation
import TestSupport

/// What the view-model suites with a store share: a view model whose replies come from a
/// scenario of the test server, and a message sent and answered.
@MainActor
protocol ViewModelTesting {}

extension ViewModelTesting {
    var server: TestServer { TestServer.shared }

    func viewModel(_ scenario: String, store: ChatStore) -> ChatViewModel {
        ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "m")), store: store)
    }

    /// Sends `text` from the entry and waits until the reply has ended and been saved.
    func send(_ text: String, in model: ChatViewModel) async {
        model.draft = text
        model.send()
        await model.waitUntilIdle()
    }
}
