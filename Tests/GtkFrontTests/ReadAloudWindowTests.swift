import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Replies read aloud in the window under Xvfb, through a real speech-dispatcher each test
    /// starts (its voice written to a file) and the X server: from a reply's menu and with
    /// Ctrl+Shift+S, the spoken word highlighted as it moves, Stop; without the service, what it
    /// needs.
    @MainActor
    @Suite("Reading replies aloud in the window (GTK under Xvfb, speech-dispatcher)", .serialized)
    struct ReadAloudWindowTests {
        let server = TestServer.shared

        func launch(speech: SpeechAddress) async throws -> (AgentApplication, ChatWindow) {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("speech"), model: "m"), speech: speech)
            return try await GtkTestHarness.shown(app)
        }

        /// Runs `body` with a speech service of its own and the app reading through it, then ends both.
        func withReader(_ body: (SpeechService, AgentApplication, ChatWindow) async throws -> Void) async throws {
            let service = try SpeechService()
            defer { service.stop() }
            let (app, window) = try await launch(speech: service.address)
            defer {
                app.readAloud.shutDown()
                GtkTestHarness.close(app)
            }
            try await body(service, app, window)
        }

        func row(_ window: ChatWindow, _ index: Int) throws -> MessageRow {
            try #require(window.transcript.boundRow(for: window.viewModel.conversation[index].id), "row \(index) built")
        }

        /// Right-clicks `widget` in `row`'s bubble, where it shows in the transcript, and chooses
        /// `item` in the menu; the menu's items.
        @discardableResult
        func choose(_ item: String, in row: MessageRow, at widget: UnsafeMutablePointer<GtkWidget>,
                    of window: ChatWindow) async throws -> [String] {
            var bounds = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(widget, window.transcript.listView, &bounds) != 0)
            // Its first line in view.
            try await Xdo.click(widget, button: 3, x: 6, y: Double(max(0, -bounds.origin.y)) + 8)
            try await GtkTestHarness.pump(until: { row.menu.isOpen && GtkTestHarness.isMapped(row.menu.popover) }, "the menu")
            let items = row.menu.itemLabels
            let label = try #require(GtkTestHarness.reachableLabel(item, in: row.menu.popover), "“\(item)” in \(items)")
            try await Xdo.click(label)
            return items
        }

        /// Watches the highlight in `row` until it has moved through `count` words: each time,
        /// the word highlighted on screen is the one the service reached. The word indices seen.
        func watchHighlight(in row: MessageRow, of window: ChatWindow, through count: Int) async throws -> [Int] {
            var seen: [Int] = []
            var mismatches: [String] = []
            try await GtkTestHarness.pump(until: {
                guard case .reading(_, let index?) = window.readAloud.state, let text = window.readAloud.text else { return false }
                if seen.last != index {
                    seen.append(index)
                    let shown = row.spoken?.highlightedWord?.text
                    if shown != text.text(of: text.words[index]) { mismatches.append("word \(index): \(shown ?? "none")") }
                }
                return seen.count >= count
            }, "the highlight to move through \(count) words")
            #expect(mismatches.isEmpty, "the word highlighted is the word spoken: \(mismatches)")
            #expect(seen == seen.sorted(), "forward through the reply: \(seen)")
            return seen
        }

        /// Whether any of `widget`'s text is drawn highlighted: with a background in a label's
        /// layout, under the reading tag in a text view (a code block).
        func isHighlighted(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
            if GtkText.isLabel(widget) {
                guard let layout = gtk_label_get_layout(widget.opaque), let attributes = pango_layout_get_attributes(layout),
                      let iterator = pango_attr_list_get_iterator(attributes) else { return false }
                defer { pango_attr_iterator_destroy(iterator) }
                repeat {
                    if pango_attr_iterator_get(iterator, PANGO_ATTR_BACKGROUND) != nil { return true }
                } while pango_attr_iterator_next(iterator) != 0
                return false
            }
            let buffer = gtk_text_view_get_buffer(widget.cast())
            guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), "agent-reading") else { return false }
            var start = GtkTextIter()
            gtk_text_buffer_get_start_iter(buffer, &start)
            return gtk_text_iter_starts_tag(&start, tag) != 0 || gtk_text_iter_forward_to_tag_toggle(&start, tag) != 0
        }

        /// Whether `widget` is inside the transcript's visible part.
        func isInView(_ widget: UnsafeMutablePointer<GtkWidget>, of window: ChatWindow) -> Bool {
            let list = window.transcript.listView
            var bounds = graphene_rect_t()
            guard gtk_widget_compute_bounds(widget, list, &bounds) != 0 else { return false }
            return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= Float(gtk_widget_get_height(list))
        }

        @Test("Read Aloud in a reply's menu reads its plain words, the highlight moving from word to word in view; the menu's Stop Reading ends it")
        func readFromTheMenu() async throws {
            try await withReader { service, app, window in
                try await GtkTestHarness.send("read this", in: window, settling: true)
                let reply = try row(window, 1)
                let items = try await choose("Read Aloud", in: reply, at: reply.bubble, of: window)
                #expect(items == ["Copy Reply", "Regenerate Reply", "Read Aloud", "Copy Chat as Markdown"])
                #expect(window.readAloud.readingMessageID == window.viewModel.conversation[1].id)

                let text = try #require(window.readAloud.text)
                let spoken = text.words.map(text.text(of:)).joined(separator: " ")
                #expect(spoken.hasPrefix("Reading aloud This reply has bold words, a link to the docs and code. first item second item echo hello Paragraph 1 goes on"),
                        "the words shown, without their Markdown: \(spoken.prefix(160))")
                #expect(!spoken.contains("**") && !spoken.contains("example.org") && !spoken.contains("```") && !spoken.contains("•"))

                let seen = try await watchHighlight(in: reply, of: window, through: 6)
                #expect(GtkTestHarness.isVisible(reply.stopReadingButton), "Stop Reading in the footer")
                // The spoken word is kept in view (the reply is taller than the window).
                // A label, or a code block's text view when the voice has gone that far.
                let spokenWidget = try #require(reply.spoken?.highlightedWord?.widget)
                // Held: once reading stops the row lets go of it.
                g_object_ref(spokenWidget.raw)
                defer { g_object_unref(spokenWidget.raw) }
                try await GtkTestHarness.pump(until: { isInView(spokenWidget, of: window) }, "the spoken word in view")

                let menu = try await choose("Stop Reading", in: reply, at: spokenWidget, of: window)
                #expect(menu.contains("Stop Reading") && !menu.contains("Read Aloud"))
                try await GtkTestHarness.pump(until: { window.readAloud.state == .idle }, "reading to stop")
                #expect(reply.spoken == nil && !GtkTestHarness.isVisible(reply.stopReadingButton))
                #expect(!isHighlighted(spokenWidget), "no highlight left")
                let words = window.readAloud.text?.words.count ?? text.words.count
                #expect((seen.last ?? 0) < words - 1, "stopped before the end")
                try await GtkTestHarness.pump(until: { service.audioBytes > 10_000 }, "the voice written to \(service.audioFile.path)")
            }
        }

        @Test("Ctrl+Shift+S reads the last reply, Stop in its footer ends it; on a focused reply it reads that one, and the other stops")
        func readWithTheKeyboard() async throws {
            try await withReader { service, app, window in
                var read: [UUID] = []
                app.readAloud.observe { state in
                    if case .reading(let id, _) = state, read.last != id { read.append(id) }
                }
                try await GtkTestHarness.send("short one", in: window, settling: true)
                try await GtkTestHarness.send("a long one", in: window, settling: true)
                let conversation = window.viewModel.conversation
                let (shortReply, longReply) = (conversation[1].id, conversation[3].id)

                // The focus is in the message field: the last reply is read.
                try await Xdo.key("ctrl+shift+s")
                try await GtkTestHarness.pump(until: { window.readAloud.readingMessageID == longReply }, "the last reply read")
                let reply = try row(window, 3)
                _ = try await watchHighlight(in: reply, of: window, through: 5)

                // The footer's Stop, scrolled to with the wheel (the view leaves the spoken word then).
                let stop = reply.stopReadingButton
                try await Xdo.scroll(window.transcript.listView, up: false, clicks: 40)
                try await GtkTestHarness.pump(until: { isInView(stop, of: window) }, "Stop Reading in view")
                try await GtkTestHarness.laidOut(stop)
                try await Xdo.click(stop)
                try await GtkTestHarness.pump(until: { window.readAloud.state == .idle }, "Stop to end the reading")
                #expect(!GtkTestHarness.isVisible(stop) && reply.spoken == nil)

                // Reading again, then Ctrl+Shift+S in the first reply's text: it is read instead.
                try await Xdo.key("ctrl+shift+s")
                try await GtkTestHarness.pump(until: { window.readAloud.readingMessageID == longReply }, "the last reply read again")
                try await Xdo.scroll(window.transcript.listView, up: true, clicks: 60)
                let first = try row(window, 1)
                try await GtkTestHarness.pump(until: { isInView(first.bubble, of: window) }, "the first reply in view")
                try await GtkTestHarness.laidOut(first.bubble)
                try await Xdo.click(first.bubble, x: 20, y: 16)
                try await GtkTestHarness.pump(until: { first.focusedPart == .row }, "the focus in the first reply's text")
                try await Xdo.key("ctrl+shift+s")
                try await GtkTestHarness.pump(until: { read.last == shortReply }, "the first reply read")
                #expect(read == [longReply, longReply, shortReply] || read == [longReply, shortReply], "\(read)")
                #expect(window.transcript.boundRow(for: longReply)?.spoken == nil, "the long reply no longer shows reading")
                try await GtkTestHarness.pump(until: { window.readAloud.state == .idle }, "the short reply read to its end")
            }
        }

        @Test("Ctrl+Shift+S in a long chat paged far up reads the chat's last reply, its newest messages loaded again")
        func readTheLastReplyOfALongChat() async throws {
            let service = try SpeechService()
            defer { service.stop() }
            let store = try ChatStore(file: FileManager.default.temporaryDirectory.appending(path: "agent-window-\(UUID())/chats.sqlite"))
            let messages = (0..<300).map { ChatMessage(role: $0 % 2 == 0 ? .user : .assistant, text: "Message \($0) of a long chat.", state: .done) }
            let chat = try store.storeChat(ChatSummary(title: "Long"), messages: messages)
            let settings = try TestTools.settings()
            settings.lastChat = chat.id
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), store: store, settings: settings,
                                                speech: service.address)
            let window = try #require(app.window)
            defer {
                app.readAloud.shutDown()
                GtkTestHarness.close(app)
            }
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.settle(window)
            let model = window.viewModel
            // Page Up in the message field until the chat's newest messages are let go of.
            try await Xdo.click(window.composer.input.textView)
            try await GtkTestHarness.pump(until: { gtk_widget_has_focus(window.composer.input.textView) != 0 }, "the focus in the message field")
            var presses = 0
            while model.pager?.hasLater != true, presses < 200 {
                try await Xdo.key("Page_Up")
                try await GtkTestHarness.settle(window)
                presses += 1
            }
            #expect(model.pager?.hasLater == true, "the newest messages let go of after \(presses) presses")
            #expect(gtk_widget_has_focus(window.composer.input.textView) != 0 && window.readAloud.readingMessageID == nil,
                    "no reply focused or read: Ctrl+Shift+S is to read the last")
            let last = try #require(messages.last)
            // A reply this short may be read to its end between two looks: every reply read is noted.
            var read: [UUID] = []
            app.readAloud.observe { state in
                if case .reading(let id, _) = state, read.last != id { read.append(id) }
            }
            try await Xdo.key("ctrl+shift+s")
            try await GtkTestHarness.pump(until: { !read.isEmpty }, "a reply read")
            #expect(read == [last.id], "the chat's last reply read")
            #expect(model.pager?.hasLater == false && model.conversation.messages.last?.id == last.id, "the newest messages loaded again")
        }

        @Test("Closing the window with Ctrl+W stops the reply being read")
        func closingTheWindowStops() async throws {
            try await withReader { _, app, window in
                try await GtkTestHarness.send("read this", in: window, settling: true)
                try await Xdo.key("ctrl+shift+s")
                let reply = try row(window, 1)
                _ = try await watchHighlight(in: reply, of: window, through: 3)
                try await Xdo.key("ctrl+w")
                try await GtkTestHarness.pump(until: { app.window == nil }, "the window to close")
                #expect(app.readAloud.state == .idle, "reading stopped with the window: \(app.readAloud.state)")
            }
        }

        @Test("Without the speech service, Read Aloud stays in the menu and says what it needs and how to install it")
        func noService() async throws {
            let missing = FileManager.default.temporaryDirectory.appending(path: "agent-no-speech-\(UUID())/speechd.sock").path
            let (app, window) = try await launch(speech: SpeechAddress(socketPath: missing, autospawn: false))
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("short", in: window, settling: true)
            let reply = try row(window, 1)
            try await choose("Read Aloud", in: reply, at: reply.bubble, of: window)
            try await GtkTestHarness.pump(until: { window.speechAlert != nil }, "the explanation")
            let alert = try #require(window.speechAlert)
            #expect(alert.heading == "Reading Aloud Needs the Speech Service")
            #expect(alert.body.contains("speech-dispatcher"))
            #expect(GtkTestHarness.reachableLabel(SpeechUnavailableDialog.command, in: alert.window) != nil,
                    "the command that installs it")
            #expect(GtkText.labels(in: alert.window).contains { $0.contains("Can't connect") && $0.contains(missing) }, "libspeechd's reason")
            #expect(reply.spoken == nil && !GtkTestHarness.isVisible(reply.stopReadingButton))
            try await GtkTestHarness.answer(alert, "OK")
            try await GtkTestHarness.pump(until: { window.speechAlert == nil }, "the alert to close")
        }
    }
}
