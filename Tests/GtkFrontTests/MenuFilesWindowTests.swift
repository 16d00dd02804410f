@testable import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The header bars' menus used with the mouse: the chat's Export as Markdown and as JSON,
    /// the main menu's Export All Chats and Import Chats — through the file chooser into real
    /// files and from them into another database — and its Preferences and Keyboard Shortcuts.
    @MainActor
    @Suite("Menus, export and import (GTK under Xvfb)", .serialized)
    struct MenuFilesWindowTests {
        let server = TestServer.shared

        func launch(file: URL) async throws -> (AgentApplication, ChatWindow) {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"),
                                                store: try ChatStore(file: file), settings: try TestTools.settings())
            return try await GtkTestHarness.shown(app)
        }

        /// Opens the menu of `button` with a click and clicks its item `item`; waits for it to close.
        func choose(_ item: String, from button: UnsafeMutablePointer<GtkWidget>, of window: ChatWindow) async throws {
            try await Xdo.focus(window.window)
            let menu = try await GtkTestHarness.chooseMenuItem(item, from: button)
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isMapped(menu) }, "the menu to close")
        }

        /// Saves through the menu item `item` into `file`, and waits for the toast saying so.
        func export(_ item: String, from button: UnsafeMutablePointer<GtkWidget>, to file: URL, in window: ChatWindow) async throws {
            try await choose(item, from: button, of: window)
            try await GtkTestHarness.chooseFile(file, over: window.window, saving: true)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Saved to \(file.lastPathComponent)") },
                                          "“Saved to \(file.lastPathComponent)”")
        }

        @Test("Export as Markdown and JSON from the chat's menu, Export All and Import from the main menu, into another database")
        func exportAndImportThroughTheMenus() async throws {
            let folder = FileManager.default.temporaryDirectory.appending(path: "agent-menu-files-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let (markdown, json, all) = (folder.appending(path: "chat.md"), folder.appending(path: "chat.json"), folder.appending(path: "all.json"))
            do {
                let (app, window) = try await launch(file: folder.appending(path: "first/chats.sqlite"))
                defer { GtkTestHarness.close(app) }
                try await GtkTestHarness.send("Pelicans live near water", in: window, settling: true)
                try await GtkTestHarness.send("Where do they nest?", in: window, settling: true)
                let chatMenu = window.chatPage.chatMenuButton
                try await export("Export as Markdown…", from: chatMenu, to: markdown, in: window)
                let text = try String(contentsOf: markdown, encoding: .utf8)
                for line in ["Pelicans live near water", "Echo: Pelicans live near water (1 messages)", "Where do they nest?",
                             "Echo: Where do they nest? (3 messages)"] {
                    #expect(text.contains(line), "the Markdown export holds “\(line)”: \(text)")
                }
                try await export("Export as JSON…", from: chatMenu, to: json, in: window)
                let archive = try ChatArchive.parse(String(contentsOf: json, encoding: .utf8))
                #expect(archive.count == 1 && archive.first?.summary.title == "Pelicans live near water")
                try await Xdo.key("ctrl+n")
                try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "a new chat")
                try await GtkTestHarness.send("A second chat", in: window, settling: true)
                try await export("Export All Chats…", from: window.mainMenuButton, to: all, in: window)
                let everything = try ChatArchive.parse(String(contentsOf: all, encoding: .utf8))
                #expect(Set(everything.map(\.summary.title)) == ["Pelicans live near water", "A second chat"])
            }

            let second = folder.appending(path: "second/chats.sqlite")
            let (app, window) = try await launch(file: second)
            defer { GtkTestHarness.close(app) }
            #expect(window.library?.chats.isEmpty == true)
            try await choose("Import Chats…", from: window.mainMenuButton, of: window)
            try await GtkTestHarness.chooseFile(all, over: window.window)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Imported 2 chats") }, "“Imported 2 chats”")
            let library = try #require(window.library)
            #expect(Set(library.chats.map(\.title)) == ["Pelicans live near water", "A second chat"])
            let pelicans = try #require(library.chats.first { $0.title == "Pelicans live near water" })
            let stored = try ChatStore(file: second).messages(in: pelicans.id).map(\.message.text)
            #expect(stored == ["Pelicans live near water", "Echo: Pelicans live near water (1 messages)", "Where do they nest?",
                               "Echo: Where do they nest? (3 messages)"], "in the other database: \(stored)")
            let sidebar = try #require(window.sidebar)
            for chat in library.chats { #expect(sidebar.chatList.row(for: chat.id)?.title == chat.title, "listed in the sidebar") }
        }

        @Test("The main menu's Preferences and Keyboard Shortcuts open their windows")
        func preferencesAndShortcutsFromTheMainMenu() async throws {
            let settings = try TestTools.settings()
            let preferences = AppPreferences(settings: settings, secrets: SecretStore()) {
                ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("echo"), model: "m"))
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), preferences: preferences)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)

            try await choose("Preferences", from: window.mainMenuButton, of: window)
            try await GtkTestHarness.pump(until: { window.preferencesWindow.map { GtkTestHarness.isMapped($0.window) } == true }, "Preferences")
            let open = try #require(window.preferencesWindow)
            try await Xdo.focus(open.window)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Preferences to close")

            try await choose("Keyboard Shortcuts", from: window.mainMenuButton, of: window)
            try await GtkTestHarness.pump(until: { gtk_application_window_get_help_overlay(window.window.cast()) != nil }, "the shortcuts window built")
            let overlay = try #require(gtk_application_window_get_help_overlay(window.window.cast()))
            let shortcuts = UnsafeMutableRawPointer(overlay).assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(shortcuts) }, "the shortcuts window")
            #expect(GtkText.labels(in: shortcuts).contains("Keyboard shortcuts"))
            try await Xdo.focus(shortcuts)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isMapped(shortcuts) }, "the shortcuts window to close")
        }
    }
}
