import AgentCore
import Foundation
@testable import GtkFront
import TestSupport
import Testing

/// A suite of window tests on chats kept in a store of their own: the window launched on a
/// store file (a restart, when the file has chats), and stored chats made to open it on.
@MainActor
protocol StoredChatWindowSuite {}

extension StoredChatWindowSuite {
    /// The app with its window shown, its chats kept in `file`, answered by the test server's
    /// `scenario`.
    func launch(file: URL, settings: SettingsStore, scenario: String = "echo") async throws -> (AgentApplication, ChatWindow) {
        let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url(scenario), model: "m"),
                                            store: try ChatStore(file: file), settings: settings)
        return try await GtkTestHarness.shown(app)
    }

    /// The window after a restart on a stored chat of `messages`, the chat last open.
    func launch(chatOf messages: [ChatMessage], titled title: String) async throws -> (AgentApplication, ChatWindow) {
        let file = Self.temporaryFile()
        let chat = try ChatStore(file: file).storeChat(ChatSummary(title: title), messages: messages)
        let settings = try TestTools.settings()
        settings.lastChat = chat.id
        return try await launch(file: file, settings: settings)
    }

    /// `count` messages, asked and answered in turn, the text of each from its place.
    static func turns(_ count: Int, _ text: (Int) -> String) -> [ChatMessage] {
        (0..<count).map { ChatMessage(role: $0 % 2 == 0 ? .user : .assistant, text: text($0), state: .done) }
    }

    /// A chats file of its own, in a folder not yet made.
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "agent-window-\(UUID())/chats.sqlite")
    }
}
