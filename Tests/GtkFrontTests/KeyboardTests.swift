import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Every shortcut the README lists, pressed for real: key presses go through the X server
    /// (xdotool) to the focused window, as a person's keyboard does.
    @MainActor
    @Suite("Keyboard (GTK under Xvfb, real key presses)", .serialized)
    struct KeyboardTests {
        let server = TestServer.shared

        func launch(_ scenario: String) async throws -> (AgentApplication, ChatWindow) {
            let settings = try TestTools.settings()
            let store = try ChatStore(file: FileManager.default.temporaryDirectory.appending(path: "agent-keys-\(UUID())/chats.sqlite"))
            let preferences = AppPreferences(settings: settings, secrets: SecretStore()) { [server] in
                ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "m"))
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "m"), store: store,
                                                settings: settings, preferences: preferences)
            return try await GtkTestHarness.shown(app)
        }

        func waitForReply(_ window: ChatWindow, count: Int) async throws {
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == count && !window.viewModel.isSending },
                                          "reply \(count / 2)")
            try await GtkTestHarness.settle(window)
        }

        @Test("Enter sends and Shift+Enter starts a new line; Ctrl+N, Ctrl+F (Down to the results, Ctrl+F back to the field, Escape closes the search; the search button pressed while it is open, and opening and closing it), F2, Ctrl+, (Escape closes it), Ctrl+? (titled) and Ctrl+W")
        func windowShortcuts() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            let input = window.composer.input
            #expect(GtkTestHarness.isFocused(input.textView), "the input has the focus from the start")

            try await Xdo.type("first line")
            try await Xdo.key("shift+Return")
            try await Xdo.type("second line")
            #expect(input.text == "first line\nsecond line")
            try await Xdo.key("Return")
            try await waitForReply(window, count: 2)
            #expect(window.viewModel.conversation[0].text == "first line\nsecond line")
            #expect(input.text.isEmpty)
            #expect(GtkTestHarness.isFocused(input.textView), "focus is back in the input after sending")

            // F2: rename, typed into the dialog's entry, Enter to rename.
            try await Xdo.key("F2")
            try await GtkTestHarness.pump(until: { window.renameDialog != nil }, "the rename dialog")
            let rename = try #require(window.renameDialog)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(rename.window) }, "the dialog on screen")
            try await Xdo.focus(rename.window)
            try await Xdo.key("ctrl+a")
            try await Xdo.type("Renamed by keyboard")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.renameDialog == nil }, "the dialog to close")
            #expect(window.library?.chats.first?.title == "Renamed by keyboard")
            #expect(window.header.titleText == "Renamed by keyboard")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "a new, empty chat")
            #expect(window.library?.chats.count == 1, "the first chat stays in the list")
            #expect(GtkTestHarness.isFocused(input.textView))

            let sidebar = try #require(window.sidebar)
            try await Xdo.key("ctrl+f")
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) != 0 }, "the search bar")
            let focus = gtk_root_get_focus(OpaquePointer(window.window))
            #expect(focus.map { gtk_widget_is_ancestor($0, sidebar.searchEntry) != 0 || $0 == sidebar.searchEntry } == true,
                    "typing goes to the search entry")
            #expect(gtk_toggle_button_get_active(sidebar.searchButton.cast()) != 0, "the header's search button pressed")
            try await Xdo.type("second")
            try await GtkTestHarness.pump(until: { window.library?.searchResults.isEmpty == false }, "search results")
            try await GtkTestHarness.pump(until: { gtk_list_box_get_row_at_index(sidebar.results.listBox.opaque, 0) != nil }, "the results shown")
            try await Xdo.key("Down")
            let firstResult = try #require(gtk_list_box_get_row_at_index(sidebar.results.listBox.opaque, 0))
            try await GtkTestHarness.pump(until: { gtk_widget_has_focus(UnsafeMutableRawPointer(firstResult).assumingMemoryBound(to: GtkWidget.self)) != 0 },
                                          "Down to the first result")
            try await Xdo.key("ctrl+f")
            try await GtkTestHarness.pump(until: {
                gtk_root_get_focus(OpaquePointer(window.window)).map { gtk_widget_is_ancestor($0, sidebar.searchEntry) != 0 } == true
            }, "Ctrl+F back to the open search's field")
            #expect(gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) != 0, "the search stays open, its text kept")
            #expect(String(cString: gtk_editable_get_text(sidebar.searchEntry.opaque)) == "second")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) == 0 }, "Escape to close the search")
            #expect(gtk_toggle_button_get_active(sidebar.searchButton.cast()) == 0, "the search button let go")
            try await Xdo.click(sidebar.searchButton)
            try await GtkTestHarness.pump(until: {
                gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) != 0
                    && gtk_root_get_focus(OpaquePointer(window.window)).map { gtk_widget_is_ancestor($0, sidebar.searchEntry) != 0 } == true
            }, "the search button opens the search, its field taking the keys")
            try await Xdo.click(sidebar.searchButton)
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) == 0 }, "the search button closes it")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+comma")
            try await GtkTestHarness.pump(until: { window.preferencesWindow != nil }, "Preferences")
            let preferences = try #require(window.preferencesWindow)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(preferences.window) }, "Preferences on screen")
            try await Xdo.focus(preferences.window)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Escape to close Preferences")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+question")
            try await GtkTestHarness.pump(until: { gtk_application_window_get_help_overlay(window.window.cast()) != nil },
                                          "the shortcuts window built")
            let overlay = try #require(gtk_application_window_get_help_overlay(window.window.cast()))
            let shortcutsWindow = UnsafeMutableRawPointer(overlay).assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(shortcutsWindow) }, "the shortcuts window")
            #expect(gtk_window_get_title(shortcutsWindow.cast()).map { String(cString: $0) } == "Keyboard Shortcuts")
            let listed = GtkText.labels(in: shortcutsWindow)
            // Every key the README's table lists.
            for title in ["Send the message", "New line in the message", "Stop the reply, or cancel an edit", "Choose the model",
                          "Regenerate the last reply", "Previous version of the focused message",
                          "Next version of the focused message", "Copy the chat as Markdown", "The chat’s settings", "New chat, from the preset used last", "Search chats", "Rename the chat",
                          "Preferences", "The main menu", "Keyboard shortcuts", "Close the window", "Quit"] {
                #expect(listed.contains(title), "\(title)")
            }
            try await Xdo.focus(shortcutsWindow)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isMapped(shortcutsWindow) }, "the shortcuts window to close")

            try await Xdo.focus(window.window)
            try await Xdo.key("F10")
            try await GtkTestHarness.pump(until: { gtk_menu_button_get_popover(window.mainMenuButton.opaque) != nil }, "the main menu built")
            let menu = try #require(gtk_menu_button_get_popover(window.mainMenuButton.opaque))
            let menuWidget = UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(menuWidget) }, "F10 to open the main menu")
            #expect(GtkText.labels(in: menuWidget).contains("About Agent"))
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isMapped(menuWidget) }, "Escape to close it")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+w")
            let application = app.application
            try await GtkTestHarness.pump(until: { gtk_application_get_windows(application) == nil }, "Ctrl+W to close the window")
        }

        @Test("Ctrl+Shift+R asks again: the reply really changes; Ctrl+Shift+C copies the chat as Markdown")
        func regenerateAndCopyChat() async throws {
            let (app, window) = try await launch("counter-\(uniqueMarker())")
            defer { GtkTestHarness.close(app) }
            try await Xdo.type("Say something")
            try await Xdo.key("Return")
            try await waitForReply(window, count: 2)
            let first = window.viewModel.conversation[1].text
            #expect(first == "Reply number 1 to: Say something")
            try await Xdo.key("ctrl+shift+r")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2 && !window.viewModel.isSending
                && window.viewModel.conversation[1].text != first }, "the new reply")
            let second = window.viewModel.conversation[1]
            #expect(second.text == "Reply number 2 to: Say something")
            try await GtkTestHarness.settle(window)
            #expect(window.transcript.boundRow(for: second.id)?.displayedText == second.text, "the window shows the new reply")

            try await Xdo.key("ctrl+shift+c")
            let chat = try await GtkTestHarness.readClipboard(when: { $0.hasPrefix("# Say something") && $0.contains("Reply number 2") })
            #expect(chat.hasPrefix("# Say something"), "a Markdown document with the chat's title: \(chat)")
            #expect(chat.contains("Reply number 2 to: Say something") && !chat.contains("Reply number 1"))
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Chat copied as Markdown") }, "the toast")
        }

        @Test("Escape stops a streaming reply and keeps what arrived; while editing, Escape cancels the edit")
        func escape() async throws {
            let (app, window) = try await launch("stall")
            defer { GtkTestHarness.close(app) }
            try await Xdo.type("wait for it")
            try await Xdo.key("Return")
            let viewModel = window.viewModel
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && viewModel.conversation[1].text == "Waiting" },
                                          "the first token")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "Escape to stop the stream")
            #expect(viewModel.conversation[1].state == .stopped && viewModel.conversation[1].text == "Waiting")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: viewModel.conversation[1].id))
            #expect(GtkTestHarness.label(row.stateLabel) == "Stopped")

            let userRow = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            try await Xdo.click(userRow.editButton)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isVisible(window.composer.editingNotice) }, "the editing notice")
            #expect(window.composer.input.text == "wait for it")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isVisible(window.composer.editingNotice) }, "Escape to cancel the edit")
            #expect(viewModel.editingMessageID == nil && window.composer.input.text.isEmpty)
            #expect(viewModel.conversation.count == 2, "nothing was sent or removed")
        }
    }
}
