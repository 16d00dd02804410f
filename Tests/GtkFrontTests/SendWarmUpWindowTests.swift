import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What the first frame of a send would otherwise load — libcurl for the request, the
    /// spinner's SVG icon and librsvg to read it — is loaded ahead once there is something to
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

        @Test("Send's spinner is drawn at its own 16 pixels, from the icon read and drawn once typing began: the send reads no icon file")
        func spinnerReadyBeforeReturn() async throws {
            // In a fresh process: the tests before this one have drawn the spinner.
            if try await ChildTestRun.passedInAFreshProcess("SendWarmUpWindowTests/spinnerReadyBeforeReturn") { return }
            let server = TestServer.shared
            let scenario = server.gate()
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "m"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let spinner = window.composer.spinner
            let theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(spinner))
            // Not inside #require: it would pass the name's C string on after the string had gone.
            let icon = gtk_icon_theme_lookup_icon(theme, "process-working-symbolic", nil, 16, 1, GTK_TEXT_DIR_NONE,
                                                  GtkIconLookupFlags(rawValue: 0))
            let file = icon.flatMap(IconPreload.file(of:))
            if let icon { g_object_unref(UnsafeMutableRawPointer(icon)) }
            let watch = try FileOpenWatch(try #require(file, "the spinner's icon is a file of the theme"))

            try await Xdo.type("H")
            try await GtkTestHarness.pump(until: { IconPreload.drawn.contains("process-working-symbolic") }, "the spinner's icon drawn ahead")
            #expect(watch.count() > 0, "the icon was read ahead")
            let before = watch.count()
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(spinner) }, "the spinner in place of Send's icon")
            try await GtkTestHarness.frameLaidOut(of: spinner)
            #expect(watch.count() == before, "the frame showing the spinner read its icon again")
            #expect(gtk_widget_get_width(spinner) == 16 && gtk_widget_get_height(spinner) == 16,
                    "the spinner is \(gtk_widget_get_width(spinner))×\(gtk_widget_get_height(spinner)), not the icon's size")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply to end")
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
