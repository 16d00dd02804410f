import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The header's model menu used as a person uses it: clicks and key presses through the X
    /// server, results read back from the widgets and from the requests the server received.
    @MainActor
    @Suite("Model menu (GTK under Xvfb)", .serialized)
    struct ModelMenuWindowTests {
        let server = TestServer.shared

        func launch(_ scenario: String, store: ChatStore, model: String = "test-model") async throws -> (AgentApplication, ChatWindow) {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: model), store: store,
                                                settings: try TestTools.settings())
            return try await GtkTestHarness.shown(app)
        }

        func temporaryStore() throws -> ChatStore {
            try ChatStore(file: FileManager.default.temporaryDirectory.appending(path: "agent-models-\(UUID())/chats.sqlite"))
        }

        /// The `model` of each chat request the server recorded for `marker`.
        func requestedModels(_ marker: String) async throws -> [String] {
            try await server.requests(containing: marker).compactMap { ($0["body"] as? [String: Any])?["model"] as? String }
        }

        /// Waits for the menu on screen with the server's models listed.
        func waitForMenu(_ menu: ModelMenu) async throws {
            try await GtkTestHarness.pump(until: { menu.isOpen && GtkTestHarness.isMapped(menu.listBox) }, "the model menu")
            try await GtkTestHarness.pump(until: { menu.shownEntries.contains { $0.title == "test-model-large" } },
                                          "the server's models in the menu")
        }

        /// Menu row `index`, laid out where a click will find it (the popover may still be
        /// placing itself when its rows are filled in).
        func row(_ index: Int, of menu: ModelMenu) async throws -> UnsafeMutablePointer<GtkWidget> {
            let row = UnsafeMutableRawPointer(try #require(gtk_list_box_get_row_at_index(menu.listBox.opaque, Int32(index))))
                .assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.laidOut(row)
            return row
        }

        @Test("Open by click and Ctrl+M, type to filter, arrows, Enter, click and Escape; the header and the next request follow; each chat keeps its own model")
        func chooseByMouseAndKeyboard() async throws {
            let marker = uniqueMarker()
            let (app, window) = try await launch("echo/\(marker)", store: try temporaryStore())
            defer { GtkTestHarness.close(app) }
            let header = window.header
            let menu = header.menu
            #expect(header.subtitleText == "test-model · 127.0.0.1")
            try await GtkTestHarness.send("first chat", in: window)

            try await Xdo.click(header.widget)
            try await waitForMenu(menu)
            let focus = gtk_root_get_focus(OpaquePointer(window.window))
            #expect(focus.map { $0 == menu.searchEntry || gtk_widget_is_ancestor($0, menu.searchEntry) != 0 } == true,
                    "typing goes to the search")
            #expect(menu.shownEntries.first { $0.isCurrent }?.title == "test-model", "the model in use is marked")
            #expect(menu.shownEntries.contains { $0.choice.place == .thisComputer }, "the local runtime's models are offered")
            try await Xdo.type("large")
            try await GtkTestHarness.pump(until: { menu.shownEntries.map(\.title) == ["test-model-large"] }, "only the match")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !menu.isOpen }, "the menu closes")
            #expect(header.subtitleText == "test-model-large · 127.0.0.1")
            #expect(window.viewModel.chosenModel == .server("test-model-large"))
            try await GtkTestHarness.send("second turn", in: window)
            #expect(try await requestedModels(marker) == ["test-model", "test-model-large"])
            let first = try #require(window.viewModel.chat)

            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { window.viewModel.chat == nil }, "a new chat")
            #expect(header.subtitleText == "test-model · 127.0.0.1", "a new chat starts with the default")
            try await GtkTestHarness.send("another chat", in: window)
            #expect(try await requestedModels(marker).last == "test-model")
            let second = try #require(window.viewModel.chat)

            let sidebar = try #require(window.sidebar)
            try await Xdo.click(try #require(sidebar.chatList.row(for: first.id)).root)
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.id == first.id }, "the first chat")
            #expect(header.subtitleText == "test-model-large · 127.0.0.1", "switching chats switches the header")
            try await Xdo.click(try #require(sidebar.chatList.row(for: second.id)).root)
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.id == second.id }, "the second chat")
            #expect(header.subtitleText == "test-model · 127.0.0.1")

            // Keyboard: Ctrl+M opens, Escape closes and changes nothing; Down then Enter chooses.
            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+m")
            try await waitForMenu(menu)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !menu.isOpen }, "Escape closes the menu")
            #expect(window.viewModel.chosenModel == nil)
            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+m")
            try await waitForMenu(menu)
            #expect(menu.selectedIndex.flatMap { menu.rows[$0]?.title } == "test-model", "the model in use is selected")
            try await Xdo.key("Down")
            #expect(menu.selectedIndex.flatMap { menu.rows[$0]?.title } == "test-model-large")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { header.subtitleText == "test-model-large · 127.0.0.1" }, "the header shows it")

            // A click on a row: back to the default, which the chat then follows.
            try await Xdo.click(header.widget)
            try await waitForMenu(menu)
            let defaultRow = try #require(menu.rows.firstIndex { $0?.title == "test-model" })
            try await Xdo.click(try await row(defaultRow, of: menu))
            try await GtkTestHarness.pump(until: { !menu.isOpen && header.subtitleText == "test-model · 127.0.0.1" }, "the default again")
            #expect(window.viewModel.chosenModel == nil)
            #expect(try window.viewModel.store?.chat(second.id)?.chosenModel == nil)
            #expect(try window.viewModel.store?.chat(first.id)?.chosenModel == .server("test-model-large"))
        }

        @Test("A chat whose model has gone says so in the window; its button opens the menu, which offers the others")
        func goneModel() async throws {
            let marker = uniqueMarker()
            let store = try temporaryStore()
            let old = try store.createChat(ChatSummary(title: "Chat with llama", chosenModel: .server("llama3:8b")))
            try store.save(ChatMessage(role: .user, text: "hello", state: .done), in: old.id, seq: 0)
            let (app, window) = try await launch("knownmodels/\(marker)", store: store)
            defer { GtkTestHarness.close(app) }
            let sidebar = try #require(window.sidebar)
            try await GtkTestHarness.pump(until: { sidebar.chatList.row(for: old.id).map { GtkTestHarness.isMapped($0.root) } == true },
                                          "the chat in the list")
            try await Xdo.click(try #require(sidebar.chatList.row(for: old.id)).root)
            let banner = window.chatPage.modelBanner
            try await GtkTestHarness.pump(until: { banner.text == "“llama3:8b” is no longer on this server" },
                                          "the gone model's message (chat \(window.viewModel.chat?.title ?? "none"), "
                                          + "models \(window.viewModel.models.server), banner \(banner.text ?? "none"))")
            #expect(window.viewModel.status.errorMessage.isEmpty, "no alert")

            let button = try GtkTestHarness.requireButton("Choose Model…", in: banner.widget)
            try await GtkTestHarness.pump(until: { gtk_revealer_get_child_revealed(banner.widget.opaque) != 0 }, "the banner in place")
            try await Xdo.click(button)
            let menu = window.header.menu
            try await waitForMenu(menu)
            #expect(menu.shownEntries.filter { $0.choice.place == .server }.map(\.title) == ["test-model", "test-model-large"])
            let large = try #require(menu.rows.firstIndex { $0?.title == "test-model-large" })
            try await Xdo.click(try await row(large, of: menu))
            try await GtkTestHarness.pump(until: { banner.text == nil }, "the message goes")
            try await GtkTestHarness.send("still there?", in: window)
            #expect(try await requestedModels(marker) == ["test-model-large"])
            #expect(window.viewModel.conversation.messages.last?.state == .done)
        }

        @Test("A server that cannot be reached: the menu says why in a line, still offers the local models, and the window keeps answering")
        func unreachableServer() async throws {
            // The discard port, which nothing here listens on: the connection is refused.
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "test-model"),
                                                store: try temporaryStore(), settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let menu = window.header.menu
            let probe = MainLoopProbe()
            try await Xdo.key("ctrl+m")
            try await GtkTestHarness.pump(until: { menu.isOpen && GtkTestHarness.label(menu.statusLabel).hasPrefix("Could not list") },
                                          "the reason in the menu (\(GtkTestHarness.label(menu.statusLabel)))")
            #expect(GtkTestHarness.label(menu.statusLabel).hasPrefix("Could not list the models of 127.0.0.1: "))
            #expect(menu.shownEntries.allSatisfy { $0.choice.place == .thisComputer })
            #expect(menu.shownEntries.map(\.title) == window.viewModel.models.local.map(\.displayName))
            let (longest, _) = probe.stop()
            #expect(longest < .milliseconds(500), "the main loop kept turning while the server was asked")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !menu.isOpen }, "the menu closes")
        }

        @Test("The connection's own model (here the default of --server) missing from the server: the banner says it is not there, not that it went")
        func defaultModelNotOnTheServer() async throws {
            let marker = uniqueMarker()
            let (app, window) = try await launch("knownmodels/\(marker)", store: try temporaryStore(), model: LaunchOptions.defaultRemoteModel)
            defer { GtkTestHarness.close(app) }
            try await Xdo.type("hello")
            try await Xdo.key("Return")
            let banner = window.chatPage.modelBanner
            try await GtkTestHarness.pump(until: { banner.text == "“\(LaunchOptions.defaultRemoteModel)” is not on this server" },
                                          "the banner (\(banner.text ?? "none"))")
            #expect(window.viewModel.status.errorMessage.isEmpty, "no alert")
        }
    }
}
