import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The real window under Xvfb, used as a person uses it — keys and clicks through the X
    /// server — and read back from its widgets: the empty chat's page, a reply streaming in,
    /// Page Up and Page Down, Copy, toasts, the error alert, the location question, following
    /// the newest text, Send. How replies are laid out is in `ReplyLayoutWindowTests`.
    @MainActor
    @Suite("Chat window (GTK under Xvfb)", .serialized)
    struct ChatWindowTests: TestServerWindowSuite {
        /// Where the middle of the message field's first line of text is, from the field's top.
        func firstLineMiddle(of input: MessageInput) throws -> Float {
            var start = GtkTextIter()
            gtk_text_buffer_get_start_iter(gtk_text_view_get_buffer(input.textView.cast()), &start)
            var line = GdkRectangle()
            gtk_text_view_get_iter_location(input.textView.cast(), &start, &line)
            var lineTop: Int32 = 0
            gtk_text_view_buffer_to_window_coords(input.textView.cast(), GTK_TEXT_WINDOW_WIDGET, 0, line.y, nil, &lineTop)
            var view = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(input.textView, input.widget, &view) != 0)
            return view.origin.y + Float(lineTop) + Float(line.height) / 2
        }

        /// Where the middle of the field's placeholder is, from the field's top.
        func placeholderMiddle(of input: MessageInput) throws -> Float {
            let placeholder = try #require(gtk_widget_get_last_child(input.widget))
            var bounds = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(placeholder, input.widget, &bounds) != 0)
            return bounds.origin.y + bounds.size.height / 2
        }

        @Test("An empty chat says which model answers and where; an example fills the entry; Send is off while it is empty")
        func emptyChat() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            #expect(String(cString: gtk_window_get_title(window.window.cast())) == "Agent")
            #expect(window.header.titleText == "New Chat")
            #expect(window.header.subtitleText == "configured-model · 127.0.0.1")
            let page = window.chatPage.emptyPage
            #expect(window.chatPage.showsEmptyPage && GtkTestHarness.isMapped(page.widget))
            #expect(page.title == "Chat with configured-model")
            #expect(page.descriptionText.contains("127.0.0.1"))
            #expect(window.composer.input.placeholderShown && window.composer.input.placeholderText == "Type a message…")
            let field = window.composer.input.widget
            try await GtkTestHarness.pump(until: { gtk_widget_get_last_child(field).map { gtk_widget_get_height($0) > 0 } == true },
                                          "the message field laid out")
            let lineMiddle = try firstLineMiddle(of: window.composer.input), placeholderMiddle = try placeholderMiddle(of: window.composer.input)
            #expect(abs(lineMiddle - placeholderMiddle) <= 1.5,
                    "the placeholder is where the first line of text goes, typing does not move it: \(lineMiddle) and \(placeholderMiddle)")
            #expect(!GtkTestHarness.isSensitive(window.composer.sendButton), "Send is off while the entry is empty")
            #expect(!GtkTestHarness.isVisible(window.composer.stopButton))
            try await Xdo.type("   ")
            #expect(!GtkTestHarness.isSensitive(window.composer.sendButton), "blank text cannot be sent")

            try await Xdo.click(page.exampleButtons[1])
            #expect(window.composer.input.text == EmptyChatPage.examples[1], "the example replaced what was typed")
            #expect(GtkTestHarness.isSensitive(window.composer.sendButton))
            #expect(GtkTestHarness.isFocused(window.composer.input.textView), "and the entry has the focus, to send or change it")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending && window.viewModel.conversation.count == 2 }, "the reply")
            #expect(!window.chatPage.showsEmptyPage && GtkTestHarness.isMapped(window.transcript.widget))
            #expect(window.viewModel.conversation[1].text == "Echo: \(EmptyChatPage.examples[1]) (1 messages)")
        }

        @Test("Enter sends; the reply streams into its row; Send is busy and Edit off until it ends; the focus comes back")
        func sendingStreamsTheReply() async throws {
            let scenario = server.gate(msPerToken: 25)
            let (app, window) = try await launch(scenario)
            defer { GtkTestHarness.close(app) }
            try await send("What is streaming?")
            let viewModel = window.viewModel
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 }, "the reply to start")
            #expect(window.composer.input.text.isEmpty)
            #expect(!GtkTestHarness.isSensitive(window.composer.sendButton), "no second send while sending")
            #expect(GtkTestHarness.isVisible(window.composer.stopButton))
            let replyID = viewModel.conversation[1].id
            // The server holds the rest of the reply: its row shows the first word alone.
            var snapshots: [String] = []
            try await GtkTestHarness.pump(until: { window.transcript.boundRow(for: replyID)?.displayedText == "Streaming" },
                                          "the first word in the reply's row")
            snapshots.append("Streaming")
            let question = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            #expect(!GtkTestHarness.isSensitive(question.editButton), "no edit while the reply is being written")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: {
                if let text = window.transcript.boundRow(for: replyID)?.displayedText, snapshots.last != text { snapshots.append(text) }
                return !viewModel.isSending && window.transcript.isSettled
            }, "the reply to finish in its row")
            try await GtkTestHarness.settle(window)
            let answered = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            #expect(GtkTestHarness.isSensitive(answered.editButton), "Edit once the reply is written")

            let reply = viewModel.conversation[1]
            #expect(reply.state == .done)
            let row = try #require(window.transcript.boundRow(for: replyID))
            #expect(row.displayedText == reply.text)
            #expect(reply.text.hasPrefix("Streaming reply to: What is streaming?"))
            #expect(snapshots.count > 1 && snapshots.last == reply.text, "the row grew as the tokens arrived: \(snapshots)")
            #expect(GtkTestHarness.label(row.heading.authorLabel) == "test-model")
            let userRow = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            #expect(userRow.displayedText == "What is streaming?")
            // On screen: the reply's bubble at the left, the user's at the right, each as wide as its text.
            func span(_ bubble: UnsafeMutablePointer<GtkWidget>) -> (left: Float, right: Float) {
                var bounds = graphene_rect_t()
                _ = gtk_widget_compute_bounds(bubble, window.transcript.widget, &bounds)
                return (bounds.origin.x, bounds.origin.x + bounds.size.width)
            }
            let width = Float(gtk_widget_get_width(window.transcript.widget))
            let (replyLeft, replyRight) = span(row.bubble)
            let (userLeft, userRight) = span(userRow.bubble)
            #expect(replyLeft < 40 && replyRight < width - 40, "the reply at the left: \(replyLeft)–\(replyRight) of \(width)")
            #expect(userRight > width - 40 && userLeft > width / 2, "the user's message at the right: \(userLeft)–\(userRight) of \(width)")
            #expect(!GtkTestHarness.isVisible(window.composer.stopButton))
            #expect(GtkTestHarness.isFocused(window.composer.input.textView), "the focus is back in the message field for the next message")
        }

        @Test("Page Up and Page Down in the message field scroll the conversation a page; the field keeps its text and the focus")
        func pageKeysScrollTheConversation() async throws {
            let (app, window) = try await launch("speech")
            defer { GtkTestHarness.close(app) }
            let adjustment = try await sendTallerThanTheView("a long reply", in: window)
            let bottom = { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) }
            try await Xdo.type("draft")
            let end = gtk_adjustment_get_value(adjustment)
            try await Xdo.key("Page_Up")
            try await GtkTestHarness.pump(until: { gtk_adjustment_get_value(adjustment) < end }, "the view a page up")
            let page = gtk_adjustment_get_page_size(adjustment)
            #expect(end - gtk_adjustment_get_value(adjustment) >= page / 2, "about a page, not a line")
            #expect(window.composer.input.text == "draft")
            #expect(gtk_widget_has_focus(window.composer.input.textView) != 0)
            let up = gtk_adjustment_get_value(adjustment)
            try await Xdo.key("Page_Down")
            // The rows' heights are measured as they are built: the end may have moved by a few pixels.
            try await GtkTestHarness.pump(until: { gtk_adjustment_get_value(adjustment) >= min(bottom(), up + page / 2) },
                                          "the view a page down again")
            #expect(window.composer.input.text == "draft")
        }

        @Test("Copy under a reply puts it on the clipboard, read back through the X server, and says so")
        func copyButton() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            try await send("copy me")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2 && !window.viewModel.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let reply = window.viewModel.conversation[1]
            let row = try #require(window.transcript.boundRow(for: reply.id))
            try await Xdo.click(row.copyButton)
            #expect(try await GtkTestHarness.readClipboard(when: { $0 == "Echo: copy me (1 messages)" }) == "Echo: copy me (1 messages)")
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Copied") }, "the “Copied” toast")
        }

        @Test("A toast comes above the composer as tall as a draft of several lines makes it, not over the draft")
        func toastAboveATallComposer() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            try await send("copy me")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2 && !window.viewModel.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let single = gtk_widget_get_height(window.composer.widget)
            for line in 1...4 {
                try await Xdo.type("line \(line)")
                try await Xdo.key("shift+Return")
            }
            try await GtkTestHarness.pump(until: { gtk_widget_get_height(window.composer.widget) > single + 40 }, "the field to grow")
            let row = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            try await Xdo.click(row.copyButton)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Copied") }, "the “Copied” toast")
            let toast = try #require(GtkTestHarness.descendant(ofType: "AdwToastWidget", in: window.toasts.overlay))
            var toastBounds = graphene_rect_t(), composerBounds = graphene_rect_t()
            // Once it has slid in, it keeps the theme's gap (24 px) above the composer.
            try await GtkTestHarness.pump(until: {
                gtk_widget_compute_bounds(toast, window.window, &toastBounds) != 0
                    && gtk_widget_compute_bounds(window.composer.widget, window.window, &composerBounds) != 0
                    && (20...30).contains(composerBounds.origin.y - (toastBounds.origin.y + toastBounds.size.height))
            }, "the toast above the composer (toast \(toastBounds.origin.y)+\(toastBounds.size.height), composer \(composerBounds.origin.y))")
            #expect(window.composer.input.text.hasPrefix("line 1\nline 2"), "the draft is still there")
        }

        @Test("HTTP 500: the LLM Error alert says what and why; the message is kept, marked, and back in the entry")
        func httpErrorAlert() async throws {
            let (app, window) = try await launch("http500")
            defer { GtkTestHarness.close(app) }
            try await send("Will this fail?")
            try await GtkTestHarness.pump(until: { window.alert != nil }, "the alert")
            let alert = try #require(window.alert)
            #expect(alert.heading == "LLM Error")
            #expect(alert.body.contains("500") && alert.body.contains("the model crashed"), "\(alert.body)")
            let user = window.viewModel.conversation[0]
            #expect(user.text == "Will this fail?" && user.state == .failed)
            // A row takes its message's changes at the next frame.
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: user.id))
            #expect(row.displayedText == "Will this fail?")
            #expect(GtkTestHarness.label(row.stateLabel) == "Not answered")
            var color = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(row.stateLabel), &color)
            #expect(color.red > 0.6 && color.green < 0.3 && color.blue < 0.3, "in the error colour (red), not the warning's: \(color)")
            #expect(window.composer.input.text == "Will this fail?", "the text is back in the entry")

            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(alert.window) }, "the alert on screen")
            try await Xdo.focus(alert.window)
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.alert == nil }, "Enter to close the alert")
            #expect(!window.viewModel.status.showError)
            try await GtkTestHarness.pump(until: { gtk_window_is_active(window.window.cast()) != 0 }, "the window active again")
            #expect(GtkTestHarness.isFocused(window.composer.input.textView))
            #expect(GtkTestHarness.isSensitive(window.composer.sendButton), "and it can be sent again")
        }

        @Test("First use of get_location: the question; Deny gives the model a refusal; the call shows in the reply")
        func locationConsentDialog() async throws {
            let consent = ConsentBroker()
            let settings = try TestTools.settings()
            let toolbox = Toolbox.standard(settings: settings, locationSource: nil, askConsent: { await consent.ask() })
            let marker = uniqueMarker()
            let (app, window) = try await launch("tools-single/\(marker)", toolbox: toolbox, consent: consent)
            defer { GtkTestHarness.close(app) }
            try await send("Where am I?")
            try await GtkTestHarness.pump(until: { window.consentDialog != nil }, "the question")
            let dialog = try #require(window.consentDialog)
            // The call waiting for the answer, and no text yet: the bubble ends with its tool line.
            let asking = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            try await GtkTestHarness.settle(window)
            let line = try #require(asking.reply.toolLines.first)
            #expect(line.summaryText == "Tool get_location() · waiting for your answer…", "not “running…” while it waits for the user")
            var lineHeight: Int32 = 0
            gtk_widget_measure(line.widget, GTK_ORIENTATION_VERTICAL, -1, nil, &lineHeight, nil, nil)
            #expect(gtk_widget_get_height(asking.reply.widget) == lineHeight, "no space under the tool line")
            #expect(dialog.heading == "Share Your Location?")
            #expect(dialog.body.contains("get_location"))
            for label in ["Deny", "Allow Once", "Always Allow"] { #expect(GtkTestHarness.button(label, in: dialog.window) != nil, "\(label)") }
            try await GtkTestHarness.answer(dialog, "Deny")
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let reply = window.viewModel.conversation[1]
            #expect(reply.toolCalls.first?.result == "Error: the user declined to share their location")
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(row.reply.toolLines.count == 1)
            #expect(row.reply.toolLines.first?.summaryText == "Tool get_location() → Error: the user declined to share their location")
            let followUp = try await server.requests(containing: marker).last
            let messages = (followUp?["body"] as? [String: Any])?["messages"] as? [[String: Any]]
            #expect(messages?.last?["content"] as? String == "Error: the user declined to share their location")
            #expect(!settings.locationAlwaysAllowed)
            #expect(window.consentDialog == nil)
        }

        @Test("The transcript follows new text at the bottom and leaves a reader who scrolled up with the wheel alone")
        func followsNewestOnlyAtTheBottom() async throws {
            // Six replies stream to their end; the seventh waits at the gate after its first word.
            let scenario = server.gate(msPerToken: 8, passing: 6)
            let (app, window) = try await launch(scenario)
            defer { GtkTestHarness.close(app) }
            let viewModel = window.viewModel
            let adjustment = gtk_scrolled_window_get_vadjustment(window.transcript.widget.opaque)
            func bottom() -> Double { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) }
            func value() -> Double { gtk_adjustment_get_value(adjustment) }
            for turn in 0..<6 {
                try await send("message number \(turn) " + String(repeating: "with some words ", count: 12))
                try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 * (turn + 1) && !viewModel.isSending }, "reply \(turn)")
            }
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(bottom() > 0, "the conversation is taller than the window")
            #expect(value() >= bottom() - 2, "at the bottom after the replies")

            // While the next reply streams, the reader scrolls up: the growing reply must not pull them back down.
            try await send("one more")
            try await GtkTestHarness.pump(until: { viewModel.conversation.messages.last?.text.isEmpty == false }, "the reply to start")
            try await Xdo.scroll(window.transcript.widget, up: true, clicks: 15)
            let scrolledTo = value()
            #expect(viewModel.isSending, "the reply is still streaming")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "the reply to finish")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(!window.transcript.followsNewest)
            #expect(value() < bottom() - 50 && abs(value() - scrolledTo) < 2, "still where the reader left it")

            // Back at the bottom, it follows again.
            try await Xdo.scroll(window.transcript.widget, up: false, clicks: 60)
            try await GtkTestHarness.pump(for: .milliseconds(60))
            #expect(window.transcript.followsNewest)
            try await send("and the last")
            try await GtkTestHarness.pump(until: { !viewModel.isSending && viewModel.conversation.count == 16 }, "the last reply")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(value() >= bottom() - 2)
        }

        @Test("Send stays round, at the bottom, as the message grows to several lines")
        func sendStaysRound() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            let send = window.composer.sendButton
            let single = gtk_widget_get_height(window.composer.widget)
            for line in 1...5 {
                try await Xdo.type("line \(line)")
                try await Xdo.key("shift+Return")
            }
            try await GtkTestHarness.pump(until: { gtk_widget_get_height(window.composer.widget) > single + 40 }, "the field to grow")
            try await GtkTestHarness.pump(for: .milliseconds(60))
            #expect(gtk_widget_get_width(send) == gtk_widget_get_height(send), "round: \(gtk_widget_get_width(send))×\(gtk_widget_get_height(send))")
            var bounds = graphene_rect_t()
            #expect(gtk_widget_compute_bounds(send, window.composer.widget, &bounds) != 0)
            let bottomGap = Double(gtk_widget_get_height(window.composer.widget)) - Double(bounds.origin.y + bounds.size.height)
            #expect(bottomGap < 16, "at the bottom of the composer: \(bottomGap) px above its edge")
        }
    }
}
