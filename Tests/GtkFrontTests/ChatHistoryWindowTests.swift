import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Saved chats in the window under Xvfb: two chats survive a restart; search finds a word
    /// in the older one and opens it there.
    @MainActor
    @Suite("Chat history in the window (GTK under Xvfb)", .serialized)
    struct ChatHistoryWindowTests {
        let server = TestServer.shared

        func launch(file: URL, settings: SettingsStore) throws -> (AgentApplication, ChatWindow) {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"),
                                                store: try ChatStore(file: file), settings: settings)
            return (app, try #require(app.window))
        }

        func send(_ text: String, in window: ChatWindow) async throws {
            window.composer.input.enter(text)
            window.composer.input.submit()
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply to “\(text)”")
        }

        @Test func twoChatsSurviveARestartAndSearchFindsTheOlderOne() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-window-\(UUID())/chats.sqlite")
            let settings = SettingsStore(file: TestTools.temporarySettingsFile())
            do {
                let (app, window) = try launch(file: file, settings: settings)
                try await send("Pelicans live near water", in: window)
                gtk_widget_activate_action_variant(window.window, "win.new-chat", nil)
                try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "an empty new chat")
                try await send("What is a good sourdough starter?", in: window)
                try await GtkTestHarness.pump(for: .milliseconds(80))
                let sidebar = try #require(window.sidebar)
                #expect(window.library?.chats.map(\.title) == ["What is a good sourdough starter?", "Pelicans live near water"])
                #expect(sidebar.chatList.row(for: try #require(window.library?.chats.first?.id))?.title == "What is a good sourdough starter?")
                GtkTestHarness.close(app)
            }

            let (app, window) = try launch(file: file, settings: settings)
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(for: .milliseconds(100))
            let library = try #require(window.library)
            let sidebar = try #require(window.sidebar)
            #expect(library.chats.map(\.title) == ["What is a good sourdough starter?", "Pelicans live near water"])
            for chat in library.chats {
                #expect(sidebar.chatList.row(for: chat.id)?.title == chat.title, "both rows are shown")
            }
            #expect(window.viewModel.chat?.title == "What is a good sourdough starter?", "it reopens on the last chat")
            #expect(window.transcript.boundRow(for: window.viewModel.conversation[0].id)?.displayedText == "What is a good sourdough starter?")

            gtk_widget_activate_action_variant(window.window, "win.search", nil)
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) != 0 }, "the search bar")
            gtk_editable_set_text(OpaquePointer(sidebar.searchEntry), "pelican")
            try await GtkTestHarness.pump(until: { !library.searchResults.isEmpty }, "search results")
            #expect(sidebar.results.shownTexts.contains { $0.hasPrefix("Pelicans live near water — ") })
            let messageHit = try #require(library.searchResults.firstIndex { $0.messageID != nil })
            let found = try #require(library.searchResults[messageHit].messageID)
            sidebar.results.open(messageHit)
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.title == "Pelicans live near water" }, "the older chat")
            try await GtkTestHarness.pump(for: .milliseconds(80))
            let row = try #require(window.transcript.boundRow(for: found))
            #expect(row.displayedText.lowercased().contains("pelican"))
            #expect(gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) == 0, "the search closes on a result")
            #expect(library.searchResults.isEmpty)
        }

        @Test("Delete shows an undo notice; Undo brings the chat back")
        func deleteAndUndo() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-window-\(UUID())/chats.sqlite")
            let (app, window) = try launch(file: file, settings: SettingsStore(file: TestTools.temporarySettingsFile()))
            defer { GtkTestHarness.close(app) }
            try await send("Keep me", in: window)
            let library = try #require(window.library)
            let toast = window.toast
            let chat = try #require(library.chats.first)
            let row = try #require(window.sidebar?.chatList.row(for: chat.id))
            agent_emit_signal(row.deleteButton.raw, "clicked")
            try await GtkTestHarness.pump(until: { toast.isShown }, "the undo notice")
            #expect(toast.text == "“Keep me” deleted")
            #expect(library.chats.isEmpty)
            #expect(window.viewModel.chat == nil, "a new chat is on screen")
            agent_emit_signal(toast.actionButton.raw, "clicked")
            try await GtkTestHarness.pump(until: { !toast.isShown }, "the notice to go")
            #expect(library.chats.map(\.id) == [chat.id])
            #expect(window.viewModel.chat?.id == chat.id)
        }

        @Test("Edit from the row's button; Regenerate from the last reply's")
        func editAndRegenerate() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-window-\(UUID())/chats.sqlite")
            let (app, window) = try launch(file: file, settings: SettingsStore(file: TestTools.temporarySettingsFile()))
            defer { GtkTestHarness.close(app) }
            try await send("first", in: window)
            try await send("second", in: window)
            try await GtkTestHarness.pump(for: .milliseconds(60))
            let model = window.viewModel
            let lastReply = try #require(window.transcript.boundRow(for: model.conversation[3].id))
            #expect(GtkTestHarness.isVisible(lastReply.regenerateButton))
            #expect(!GtkTestHarness.isVisible(try #require(window.transcript.boundRow(for: model.conversation[1].id)).regenerateButton))
            agent_emit_signal(lastReply.regenerateButton.raw, "clicked")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 4 }, "the new reply")
            #expect(model.conversation[3].text == "Echo: second (3 messages)")

            let firstRow = try #require(window.transcript.boundRow(for: model.conversation[0].id))
            agent_emit_signal(firstRow.editButton.raw, "clicked")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isVisible(window.composer.editingNotice) }, "the editing notice")
            #expect(window.composer.input.text == "first")
            try await send("FIRST", in: window)
            #expect(model.conversation.messages.map(\.text) == ["FIRST", "Echo: FIRST (1 messages)"])
            #expect(!GtkTestHarness.isVisible(window.composer.editingNotice))
        }
    }
}
