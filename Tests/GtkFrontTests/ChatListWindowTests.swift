@testable import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The sidebar's chat list under Xvfb: delete and undo from the toast, a row's tooltip,
    /// and a store that refuses changes.
    @MainActor
    @Suite("The chat list in the window (GTK under Xvfb)", .serialized)
    struct ChatListWindowTests: StoredChatWindowSuite {
        let server = TestServer.shared

        @Test("Delete from the chat list: a toast with Undo, above the composer as it grows (lines, a file); clicking Undo brings the chat back; an empty list says so")
        func deleteAndUndo() async throws {
            let (app, window) = try await launch(file: Self.temporaryFile(), settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let chatList = try #require(window.sidebar?.chatList)
            #expect(GtkTestHarness.isMapped(chatList.placeholder), "no chats: the list says so")
            #expect(GtkTestHarness.label(chatList.placeholder) == "No chats yet")
            try await GtkTestHarness.send("Keep me", in: window, settling: true)
            #expect(!GtkTestHarness.isMapped(chatList.placeholder) && GtkTestHarness.isMapped(chatList.listView), "the chat listed in its place")
            let library = try #require(window.library)
            let chat = try #require(library.chats.first)
            let row = try #require(chatList.row(for: chat.id))
            let notes = FileManager.default.temporaryDirectory.appending(path: "notes-\(uniqueMarker()).txt")
            try Data("Notes\n".utf8).write(to: notes)
            defer { try? FileManager.default.removeItem(at: notes) }
            // Copied in a file manager before the toast comes, to be pasted while it is up.
            try await GtkTestHarness.setClipboard(Data((notes.absoluteString + "\r\n").utf8), type: "text/uri-list", for: window.window)
            try await Xdo.click(row.deleteButton)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("“Keep me” deleted") }, "the undo toast")
            #expect(library.chats.isEmpty)
            #expect(window.viewModel.chat == nil, "a new chat is on screen")
            #expect(GtkTestHarness.isMapped(chatList.placeholder), "the last chat deleted: the list says it is empty")
            let undo = try GtkTestHarness.requireButton("Undo", in: window.toasts.overlay)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(undo) }, "Undo on screen")
            // Once it has slid in, the toast stays above the composer.
            let toast = try #require(GtkTestHarness.descendant(ofType: "AdwToastWidget", in: window.toasts.overlay))
            var toastBounds = graphene_rect_t(), composerBounds = graphene_rect_t()
            try await GtkTestHarness.pump(until: {
                gtk_widget_compute_bounds(toast, window.window, &toastBounds) != 0
                    && gtk_widget_compute_bounds(window.composer.widget, window.window, &composerBounds) != 0
                    && toastBounds.origin.y + toastBounds.size.height <= composerBounds.origin.y
            }, "the toast above the composer (toast \(toastBounds.origin.y)+\(toastBounds.size.height), composer \(composerBounds.origin.y))")
            // A message of a few lines begun while Undo is up: the toast rises with the field.
            let oneLine = composerBounds.origin.y
            window.composer.input.focus()
            try await Xdo.type("first line")
            try await Xdo.key("shift+Return")
            try await Xdo.type("second line")
            try await GtkTestHarness.pump(until: {
                gtk_widget_compute_bounds(toast, window.window, &toastBounds) != 0
                    && gtk_widget_compute_bounds(window.composer.widget, window.window, &composerBounds) != 0
                    && composerBounds.origin.y < oneLine - 10
                    && (20...30).contains(composerBounds.origin.y - (toastBounds.origin.y + toastBounds.size.height))
            }, "the toast risen with the field (toast \(toastBounds.origin.y)+\(toastBounds.size.height), composer \(composerBounds.origin.y))")
            // A file pasted: its chip makes the composer taller again, and the toast rises with it.
            let twoLines = composerBounds.origin.y
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: {
                gtk_widget_compute_bounds(toast, window.window, &toastBounds) != 0
                    && gtk_widget_compute_bounds(window.composer.widget, window.window, &composerBounds) != 0
                    && window.viewModel.files.items.count == 1 && composerBounds.origin.y < twoLines - 10
                    && (20...30).contains(composerBounds.origin.y - (toastBounds.origin.y + toastBounds.size.height))
            }, "the toast risen with the file's chip (toast \(toastBounds.origin.y)+\(toastBounds.size.height), composer \(composerBounds.origin.y))")
            try await Xdo.click(undo)
            try await GtkTestHarness.pump(until: { library.chats.map(\.id) == [chat.id] }, "the chat back")
            #expect(window.viewModel.chat?.id == chat.id)
            #expect(!GtkTestHarness.isMapped(chatList.placeholder))
        }

        @Test("A chat row's tooltip gives its title only when the row cuts it short")
        func titleTooltipOnlyWhenCut() async throws {
            let store = try ChatStore(file: Self.temporaryFile())
            let long = try store.createChat(ChatSummary(title: "The migration of arctic terns from pole to pole, and how they find their way"))
            let short = try store.createChat(ChatSummary(title: "Terns"))
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), store: store,
                                                settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let sidebar = try #require(window.sidebar)
            let (longRow, shortRow) = (try #require(sidebar.chatList.row(for: long.id)), try #require(sidebar.chatList.row(for: short.id)))
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(longRow.titleLabel) && GtkTestHarness.isMapped(shortRow.titleLabel) },
                                          "both rows on screen")
            #expect(longRow.titleTooltip == long.title, "cut short: the whole title")
            #expect(shortRow.titleTooltip == nil, "shown whole: no tooltip repeating it")
            // The pointer on each title: GTK asks it for a tooltip (an emission hook sees every
            // query); a handler connected after the row's runs only when the row gives none.
            let queries = TooltipQueries()
            let context = Unmanaged.passUnretained(queries).toOpaque()
            let signal = g_signal_lookup("query-tooltip", gtk_widget_get_type())
            let hook: GSignalEmissionHook = { _, count, values, data in
                guard let values, let data, count > 0, let widget = g_value_get_object(values) else { return 1 }
                Unmanaged<TooltipQueries>.fromOpaque(data).takeUnretainedValue().asked.insert(widget)
                return 1
            }
            let hookID = g_signal_add_emission_hook(signal, 0, hook, context, nil)
            defer { g_signal_remove_emission_hook(signal, hookID) }
            let noted: @convention(c) (gpointer?, Int32, Int32, gboolean, gpointer?, gpointer?) -> gboolean = { widget, _, _, _, _, data in
                if let widget, let data { Unmanaged<TooltipQueries>.fromOpaque(data).takeUnretainedValue().unanswered.insert(widget) }
                return 0
            }
            for label in [longRow.titleLabel, shortRow.titleLabel] {
                g_signal_connect_data(label, "query-tooltip", unsafeBitCast(noted, to: GCallback.self), context, nil, GConnectFlags(rawValue: 0))
            }
            try await Xdo.hover(longRow.titleLabel)
            try await GtkTestHarness.pump(until: { queries.asked.contains(longRow.titleLabel.raw) }, "GTK asking the cut title for a tooltip")
            #expect(!queries.unanswered.contains(longRow.titleLabel.raw), "the row gave the tooltip")
            try await Xdo.hover(shortRow.titleLabel)
            try await GtkTestHarness.pump(until: { queries.asked.contains(shortRow.titleLabel.raw) }, "GTK asking the whole title for a tooltip")
            #expect(queries.unanswered.contains(shortRow.titleLabel.raw), "the row gave none")
        }

        @Test("A store that refuses (locked): renaming and deleting say so, and the list still shows what the store has")
        func refusedWritesAreShown() async throws {
            let file = Self.temporaryFile()
            let store = try ChatStore(file: file, busyTimeout: .milliseconds(50))
            let chat = try store.createChat(ChatSummary(title: "Locked in"))
            let settings = try TestTools.settings()
            settings.lastChat = chat.id
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), store: store,
                                                settings: settings)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let library = try #require(window.library)
            let lock = try SQLiteDatabase(path: file.path)
            try lock.execute("BEGIN EXCLUSIVE")
            try await Xdo.key("F2")
            try await GtkTestHarness.pump(until: { window.renameDialog.map { GtkTestHarness.isMapped($0.window) } == true }, "the rename dialog")
            try await Xdo.focus(try #require(window.renameDialog).window)
            try await Xdo.key("ctrl+a")
            try await Xdo.type("New name")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.alert != nil }, "the alert")
            let alert = try #require(window.alert)
            #expect(alert.body.contains("Could not change your chats") && alert.body.contains("locked"), "\(alert.body)")
            #expect(alert.heading == "Could Not Change Chats", "Agent's own error, not the model's")
            #expect(library.chats.map(\.title) == ["Locked in"], "the list keeps the title the store has")
            try await GtkTestHarness.answer(alert, "OK")
            try await GtkTestHarness.pump(until: { window.alert == nil }, "the alert to close")

            let row = try #require(window.sidebar?.chatList.row(for: chat.id))
            try await Xdo.click(row.deleteButton)
            try await GtkTestHarness.pump(until: { window.alert != nil }, "the second alert")
            #expect(library.chats.map(\.id) == [chat.id], "the chat the store could not delete is still listed")
            try lock.execute("ROLLBACK")
        }
    }
}
