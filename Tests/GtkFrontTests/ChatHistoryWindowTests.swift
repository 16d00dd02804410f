@testable import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Saved chats in the window under Xvfb: two chats survive a restart; a search hit opens
    /// its chat at the hit; a reply cut off, or stopped by a new chat; edit and regenerate
    /// from a message's buttons. (The chat list itself: `ChatListWindowTests`; a long chat
    /// scrolled: `LongChatWindowTests`.)
    @MainActor
    @Suite("Chat history in the window (GTK under Xvfb)", .serialized)
    struct ChatHistoryWindowTests: StoredChatWindowSuite {
        let server = TestServer.shared

        @Test("Two chats survive a restart; a search finds nothing or finds both, a title hit centred; a hit opens its chat at the hit, marked")
        func chatsSurviveARestartAndSearchFindsTheOlderOne() async throws {
            let file = Self.temporaryFile()
            let settings = try TestTools.settings()
            do {
                let (app, window) = try await launch(file: file, settings: settings)
                try await GtkTestHarness.send("Pelicans live near water", in: window, settling: true)
                try await Xdo.key("ctrl+n")
                try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "an empty new chat")
                try await GtkTestHarness.send("What is a good sourdough starter?", in: window, settling: true)
                let sidebar = try #require(window.sidebar)
                #expect(window.library?.chats.map(\.title) == ["What is a good sourdough starter?", "Pelicans live near water"])
                #expect(sidebar.chatList.row(for: try #require(window.library?.chats.first?.id))?.title == "What is a good sourdough starter?")
                GtkTestHarness.close(app)
            }

            let (app, window) = try await launch(file: file, settings: settings)
            defer { GtkTestHarness.close(app) }
            let library = try #require(window.library)
            let sidebar = try #require(window.sidebar)
            #expect(library.chats.map(\.title) == ["What is a good sourdough starter?", "Pelicans live near water"])
            for chat in library.chats { #expect(sidebar.chatList.row(for: chat.id)?.title == chat.title, "both rows are shown") }
            #expect(window.viewModel.chat?.title == "What is a good sourdough starter?", "it reopens on the last chat")

            try await Xdo.key("ctrl+f")
            try await GtkTestHarness.pump(until: { gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) != 0 }, "the search bar")
            try await Xdo.type("pelican")
            try await GtkTestHarness.pump(until: { library.searchQuery == "pelican" && sidebar.results.shownTexts.contains { $0.hasPrefix("Pelicans live near water — ") } },
                                          "the message among the results (query \"\(library.searchQuery)\", entry \"\(String(cString: gtk_editable_get_text(sidebar.searchEntry.opaque)))\", shown \(sidebar.results.shownTexts), composer \"\(window.viewModel.draft)\")")
            // The search entry waits a moment after the last key before it searches: let it settle.
            try await GtkTestHarness.pump(for: .milliseconds(400))
            // Typed on to a word no chat holds: the list says so; back, the hits return.
            try await Xdo.type("zzz")
            try await GtkTestHarness.pump(until: { library.searchQuery == "pelicanzzz" && library.searchResults.isEmpty }, "no hits")
            try await GtkTestHarness.pump(until: { GtkTestHarness.mappedLabel("No Results Found", in: sidebar.results.widget) != nil },
                                          "“No Results Found” in place of the results")
            for _ in 0..<3 { try await Xdo.key("BackSpace") }
            try await GtkTestHarness.pump(until: { library.searchQuery == "pelican" && sidebar.results.shownTexts.contains { $0.hasPrefix("Pelicans live near water — ") } },
                                          "the hits back")
            #expect(GtkTestHarness.mappedLabel("No Results Found", in: sidebar.results.widget) == nil)
            try await GtkTestHarness.pump(for: .milliseconds(400))
            // A title hit alone in its row sits in the row's middle.
            let titleIndex = try #require(library.searchResults.firstIndex { $0.messageID == nil })
            let titleRow = UnsafeMutableRawPointer(try #require(gtk_list_box_get_row_at_index(sidebar.results.listBox.opaque, Int32(titleIndex))))
                .assumingMemoryBound(to: GtkWidget.self)
            let titleLabel = try #require(GtkTestHarness.labelWidgets(in: titleRow).first)
            var rowBounds = graphene_rect_t(), labelBounds = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(titleRow, window.window, &rowBounds) != 0)
            #expect(gtk_widget_compute_bounds(titleLabel, window.window, &labelBounds) != 0)
            let offCentre = (labelBounds.origin.y + labelBounds.size.height / 2) - (rowBounds.origin.y + rowBounds.size.height / 2)
            #expect(abs(offCentre) <= 1, "the title \(offCentre) px off its row's middle")
            let hitIndex = try #require(library.searchResults.firstIndex { $0.messageID != nil })
            let found = try #require(library.searchResults[hitIndex].messageID)
            let hitRow = UnsafeMutableRawPointer(try #require(gtk_list_box_get_row_at_index(sidebar.results.listBox.opaque, Int32(hitIndex))))
                .assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(hitRow) }, "the result on screen")
            let hitLabels = GtkTestHarness.labelWidgets(in: hitRow)
            #expect(hitLabels.count == 2 && GtkTestHarness.boldWords(in: hitLabels[1]) == ["Pelicans"], "the word found in bold")
            #expect(GtkTestHarness.boldWords(in: titleLabel) == ["Pelicans"], "in a title too")
            try await Xdo.click(hitRow)
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.title == "Pelicans live near water" },
                                          "the older chat (results \(library.searchResults.map { "\($0.chatTitle)/\($0.messageID != nil)" }), on screen \(window.viewModel.chat?.title ?? "none"), hit \(hitIndex))")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: found))
            #expect(row.displayedText.lowercased().contains("pelican"))
            #expect(gtk_widget_has_css_class(row.bubble, "found") != 0, "the hit is marked")
            #expect(gtk_search_bar_get_search_mode(sidebar.searchBar.opaque) == 0, "the search closes on a result")
            #expect(gtk_widget_has_focus(window.composer.input.textView) != 0, "the focus goes on to the message field")
        }

        @Test("A reply cut off during a tool call, reopened: its line says the call did not finish, not that it runs")
        func toolCallCutOff() async throws {
            let file = Self.temporaryFile()
            let question = ChatMessage(role: .user, text: "Where am I?", state: .done)
            let reply = ChatMessage(role: .assistant, text: "", state: .cutOff,
                                    toolCalls: [ToolCall(id: "call-1", name: "get_location", arguments: .object([]))])
            let chat = try ChatStore(file: file).storeChat(ChatSummary(title: "Cut off"), messages: [question, reply])
            let (app, window) = try await launch(file: file, settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let listed = try #require(window.sidebar?.chatList.row(for: chat.id))
            try await Xdo.click(listed.root)
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.id == chat.id }, "the chat opened")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(row.reply.toolLines.first?.summaryText == "Tool get_location() · not finished")
        }

        @Test("A search hit deep in a long chat: the window opens on a page around it, scrolled to it and marked — not at the bottom")
        func searchHitInALongChat() async throws {
            let file = Self.temporaryFile()
            let store = try ChatStore(file: file)
            let messages = (0..<400).map { index in
                ChatMessage(role: index % 2 == 0 ? .user : .assistant,
                            text: index == 41 ? "The word albatross appears here only." : "Message \(index): " + String(repeating: "words ", count: 20),
                            state: .done)
            }
            _ = try store.storeChat(ChatSummary(title: "Long chat"), messages: messages)
            let (app, window) = try await launch(file: file, settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let library = try #require(window.library)
            let sidebar = try #require(window.sidebar)
            try await Xdo.key("ctrl+f")
            try await Xdo.type("albatross")
            try await GtkTestHarness.pump(until: { library.searchQuery == "albatross" && library.searchResults.contains { $0.messageID == messages[41].id } },
                                          "the hit")
            try await GtkTestHarness.pump(for: .milliseconds(400))
            let hitIndex = try #require(library.searchResults.firstIndex { $0.messageID == messages[41].id })
            let hitRow = UnsafeMutableRawPointer(try #require(gtk_list_box_get_row_at_index(sidebar.results.listBox.opaque, Int32(hitIndex))))
                .assumingMemoryBound(to: GtkWidget.self)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(hitRow) }, "the result on screen")
            #expect(hitIndex == 0, "the only result: Enter in the search opens it")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.viewModel.focusedMessageID == messages[41].id }, "the chat at the hit")
            #expect(gtk_widget_has_focus(window.composer.input.textView) != 0, "the focus goes on to the message field, not to a chat's Delete button")
            try await GtkTestHarness.settle(window)
            let model = window.viewModel
            // The page around the hit (31…60) and, as the view is near its top, the earlier
            // messages that fill the two pages above it; never the 339 after the page.
            let lastPlace = try #require(model.conversation.messages.last.flatMap { last in messages.firstIndex { $0.id == last.id } })
            #expect(lastPlace <= 60, "not the messages after the hit's page")
            #expect(model.conversation.count > ChatPager.pageSize, "earlier messages came to fill the view above the hit")
            #expect(model.conversation.messages.first?.id != messages[0].id,
                    "only the messages that fill two pages above the hit came, not all before it (the view stayed at the top)")
            #expect(model.conversation.messages.contains { $0.id == messages[41].id })
            let row = try #require(window.transcript.boundRow(for: messages[41].id), "the hit's row is built")
            #expect(gtk_widget_has_css_class(row.bubble, "found") != 0)
            // On screen: the row lies within the visible part of the transcript.
            var bounds = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(row.root, window.transcript.widget, &bounds) != 0)
            let height = Float(gtk_widget_get_height(window.transcript.widget))
            #expect(bounds.origin.y + bounds.size.height > 0 && bounds.origin.y < height, "scrolled to the hit: \(bounds.origin.y) of \(height)")
            #expect(!window.transcript.followsNewest)
        }

        @Test("A new chat while a reply is written: the reply stops, kept as far as it came, and a toast says so")
        func newChatStopsTheReplyAndSaysSo() async throws {
            let scenario = server.gate(msPerToken: 25)
            let (app, window) = try await launch(file: Self.temporaryFile(), settings: try TestTools.settings(), scenario: scenario)
            defer { GtkTestHarness.close(app) }
            try await Xdo.type("Keep writing")
            try await Xdo.key("Return")
            let viewModel = window.viewModel
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && !viewModel.conversation[1].text.isEmpty }, "the first word")
            let chat = try #require(viewModel.chat)
            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Reply in “\(chat.title)” stopped") },
                                          "the toast (shown: \(window.toasts.shownTexts))")
            #expect(viewModel.conversation.count == 0 && !viewModel.isSending, "a new chat, nothing under way")
            try await server.release(scenario)
            let library = try #require(window.library)
            let stored = try #require(try library.store.messages(in: chat.id).last?.message)
            #expect(stored.state == .stopped && stored.text == "Streaming", "the reply kept as far as it came")
        }

        @Test("Two deletes in a row: the second chat's Undo works")
        func secondDeleteHasItsOwnUndo() async throws {
            let (app, window) = try await launch(file: Self.temporaryFile(), settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("First to go", in: window, settling: true)
            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "a new chat")
            try await GtkTestHarness.send("Second to go", in: window, settling: true)
            let library = try #require(window.library)
            let sidebar = try #require(window.sidebar)
            for title in ["Second to go", "First to go"] {
                let chat = try #require(library.chats.first { $0.title == title })
                let row = try #require(sidebar.chatList.row(for: chat.id))
                try await Xdo.click(row.deleteButton)
                try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("“\(title)” deleted") }, "the toast for \(title)")
                // The row went with the focused button in it: the composer has the focus.
                #expect(gtk_widget_has_focus(window.composer.input.textView) != 0)
            }
            #expect(library.chats.isEmpty)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts == ["“First to go” deleted", "Undo"] },
                                          "only the second toast on screen")
            let undo = try GtkTestHarness.requireButton("Undo", in: window.toasts.overlay)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(undo) }, "Undo on screen")
            try await Xdo.click(undo)
            try await GtkTestHarness.pump(until: { library.chats.map(\.title) == ["First to go"] }, "the second deleted chat back")
        }

        @Test("Edit from the message's button; Regenerate from the last reply's button gives a new reply")
        func editAndRegenerate() async throws {
            let (app, window) = try await launch(file: Self.temporaryFile(), settings: try TestTools.settings(),
                                                 scenario: "counter-\(uniqueMarker())")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("first", in: window, settling: true)
            try await GtkTestHarness.send("second", in: window, settling: true)
            let model = window.viewModel
            let lastReply = try #require(window.transcript.boundRow(for: model.conversation[3].id))
            #expect(GtkTestHarness.isVisible(lastReply.regenerateButton))
            #expect(!GtkTestHarness.isVisible(try #require(window.transcript.boundRow(for: model.conversation[1].id)).regenerateButton))
            #expect(model.conversation[3].text == "Reply number 2 to: second")
            try await Xdo.click(lastReply.regenerateButton)
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 4
                && model.conversation[3].text == "Reply number 3 to: second" }, "the new reply")
            // The old reply's row went with the focused button in it: the composer has the focus.
            #expect(gtk_widget_has_focus(window.composer.input.textView) != 0)

            let firstRow = try #require(window.transcript.boundRow(for: model.conversation[0].id))
            try await Xdo.click(firstRow.editButton)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isVisible(window.composer.editingNotice) }, "the editing notice")
            #expect(window.composer.input.text == "first")
            try await Xdo.key("ctrl+a")
            try await Xdo.type("FIRST")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2 }, "the edited exchange")
            #expect(model.conversation.messages.map(\.text) == ["FIRST", "Reply number 4 to: FIRST"])
            #expect(!GtkTestHarness.isVisible(window.composer.editingNotice))
        }
    }
}
