import AgentCore
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What the first frame of a send would otherwise load — libcurl for the request, librsvg
    /// for the spinner's SVG icon — is loaded off the main thread once there is something to
    /// send: a message typed, or one put back in the entry for editing.
    @MainActor
    @Suite("Something to send prepares the send (GTK under Xvfb)", .serialized)
    struct SendWarmUpWindowTests {
        @Test("Typing loads libcurl and the spinner's SVG loader before Return; an idle window loads neither")
        func typingPreparesTheSend() async throws {
            // In a fresh process: the tests before this one have loaded both.
            if try await ChildTestRun.passedInAFreshProcess("SendWarmUpWindowTests/typingPreparesTheSend") { return }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url("echo"), model: "m"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.pump(for: .milliseconds(300))
            #expect(try !LoadedLibraries.contain("libcurl.so.4"), "libcurl loaded by the idle window")
            #expect(try !LoadedLibraries.contain("librsvg-2.so"), "librsvg loaded by the idle window")

            try await Xdo.type("H")
            try await GtkTestHarness.pump(until: {
                (try? LoadedLibraries.contain("libcurl.so.4")) == true && (try? LoadedLibraries.contain("librsvg-2.so")) == true
            }, "libcurl and librsvg to be loaded")
            #expect(window.viewModel.isSending == false, "nothing was sent")
            #expect(window.composer.input.text == "H")
        }

        @Test("A stored message put back in the entry with its Edit button, nothing typed, loads libcurl before Return")
        func editingPreparesTheSend() async throws {
            if try await ChildTestRun.passedInAFreshProcess("SendWarmUpWindowTests/editingPreparesTheSend") { return }
            let store = try ChatStore(file: FileManager.default.temporaryDirectory.appending(path: "agent-warm-up-\(UUID())/chats.sqlite"))
            let messages = [ChatMessage(role: .user, text: "Where do pelicans live?", state: .done),
                            ChatMessage(role: .assistant, text: "Near water.", state: .done)]
            let chat = try store.storeChat(ChatSummary(title: "Pelicans"), messages: messages)
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url("echo"), model: "m"),
                                                store: store, settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let sidebar = try #require(window.sidebar)
            try await GtkTestHarness.pump(until: { sidebar.chatList.row(for: chat.id) != nil }, "the chat in the list")
            try await Xdo.click(try #require(sidebar.chatList.row(for: chat.id)).root)
            try await GtkTestHarness.pump(until: { window.transcript.boundRow(for: messages[0].id) != nil },
                                          "the stored message's row (the chat open: \(window.viewModel.chat?.title ?? "none"))")
            try await GtkTestHarness.pump(for: .milliseconds(300))
            #expect(try !LoadedLibraries.contain("libcurl.so.4"), "libcurl loaded by the idle window")

            let row = try #require(window.transcript.boundRow(for: messages[0].id))
            try await Xdo.click(row.editButton)
            try await GtkTestHarness.pump(until: { (try? LoadedLibraries.contain("libcurl.so.4")) == true }, "libcurl to be loaded")
            #expect(window.viewModel.isSending == false, "nothing was sent")
            #expect(window.composer.input.text == "Where do pelicans live?")
        }
    }
}
