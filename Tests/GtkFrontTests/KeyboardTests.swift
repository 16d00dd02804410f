import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The keyboard, for real: key presses go through the X server (xdotool) to the focused
    /// window, as a user's keyboard does.
    @MainActor
    @Suite("Keyboard (GTK under Xvfb, real key presses)", .serialized)
    struct KeyboardTests {
        let server = TestServer.shared

        func launch(_ scenario: String) throws -> (AgentApplication, ChatWindow) {
            let settings = SettingsStore(file: TestTools.temporarySettingsFile())
            let store = try ChatStore(file: FileManager.default.temporaryDirectory.appending(path: "agent-keys-\(UUID())/chats.sqlite"))
            let preferences = AppPreferences(settings: settings, secrets: SecretStore()) { [server] in
                ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "m"))
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "m"), store: store,
                                                settings: settings, preferences: preferences)
            let window = try #require(app.window)
            return (app, window)
        }

        func isFocused(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_has_focus(widget) != 0 }

        @Test("Enter sends, Shift+Enter starts a new line, focus comes back to the input; Ctrl+N, Ctrl+F, Ctrl+, and Ctrl+? open what they name; Ctrl+W closes")
        func shortcuts() async throws {
            let (app, window) = try launch("echo")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window")
            try await Xdo.focus(window.window)
            let input = window.composer.input
            #expect(isFocused(input.textView), "the input has the focus from the start")

            try await Xdo.type("first line")
            try await Xdo.key("shift+Return")
            try await Xdo.type("second line")
            #expect(input.text == "first line\nsecond line")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2 && !window.viewModel.isSending }, "the reply")
            #expect(window.viewModel.conversation[0].text == "first line\nsecond line")
            #expect(input.text.isEmpty)
            #expect(isFocused(input.textView), "focus is back in the input after sending")

            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "a new, empty chat")
            #expect(window.library?.chats.count == 1, "the first chat stays in the list")

            let sidebar = try #require(window.sidebar)
            try await Xdo.key("ctrl+f")
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) != 0 }, "the search bar")
            let focus = gtk_root_get_focus(OpaquePointer(window.window))
            #expect(focus.map { gtk_widget_is_ancestor($0, sidebar.searchEntry) != 0 || $0 == sidebar.searchEntry } == true,
                    "typing goes to the search entry")
            try await Xdo.type("line")
            try await GtkTestHarness.pump(until: { window.library?.searchResults.isEmpty == false }, "search results")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) == 0 }, "Escape to close the search")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+comma")
            try await GtkTestHarness.pump(until: { window.preferencesWindow != nil }, "Preferences")
            let preferences = try #require(window.preferencesWindow)
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(preferences.window) != 0 }, "Preferences on screen")
            try await Xdo.focus(preferences.window)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Escape to close Preferences")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+question")
            let overlay = try #require(gtk_application_window_get_help_overlay(window.window.cast()))
            let shortcutsWindow = UnsafeMutableRawPointer(overlay).assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(shortcutsWindow) != 0 }, "the shortcuts window")
            #expect(GtkTestHarness.labelTexts(in: shortcutsWindow).contains("Preferences"))
            gtk_window_close(shortcutsWindow.cast())
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(shortcutsWindow) == 0 }, "the shortcuts window to close")

            try await Xdo.focus(window.window)
            try await Xdo.key("ctrl+w")
            let application = app.application
            try await GtkTestHarness.pump(until: { gtk_application_get_windows(application) == nil }, "Ctrl+W to close the window")
        }

        @Test("Escape stops a streaming reply and keeps what arrived")
        func escapeStops() async throws {
            let (app, window) = try launch("stall")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window")
            try await Xdo.focus(window.window)
            try await Xdo.type("wait for it")
            try await Xdo.key("Return")
            let viewModel = window.viewModel
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && viewModel.conversation[1].text == "Waiting" },
                                          "the first token")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "Escape to stop the stream")
            #expect(viewModel.conversation[1].state == .stopped && viewModel.conversation[1].text == "Waiting")
        }
    }
}
