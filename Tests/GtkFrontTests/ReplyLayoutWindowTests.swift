import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// How replies are laid out in the real window under Xvfb, read back from its widgets:
    /// Markdown rendered as its blocks complete, code blocks (their height, width, wheel and
    /// Copy), text around tool calls, a paragraph's width while it streams, emoji, tables at
    /// a phone's width, and the text a selection copies.
    @MainActor
    @Suite("Replies laid out in the window (GTK under Xvfb)", .serialized)
    struct ReplyLayoutWindowTests: TestServerWindowSuite {
        @Test("A code block is as tall in the first frame that shows it as once GTK has measured all its lines: rows keep their height, so the view does not jump while scrolling")
        func codeBlockHasItsHeightFromTheFirstFrame() async throws {
            let (app, window) = try await launch("widecode")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            final class Heights { var seen: [Int32] = [] }
            let heights = Heights()
            let clock = try #require(gtk_widget_get_frame_clock(window.window))
            let handler = Signals.connect(UnsafeMutableRawPointer(clock), "after-paint", after: true) {
                guard let reply = model.conversation.messages.last, reply.role == .assistant,
                      let code = window.transcript.boundRow(for: reply.id)?.reply.codeBlocks.first else { return }
                let height = gtk_widget_get_height(code.widget)
                if height > 0 { heights.seen.append(height) }
            }
            defer { g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler) }
            try await send("wide code")
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            // GtkTextView measures lines in idle time: long enough for it to have measured them all.
            try await GtkTestHarness.pump(for: .milliseconds(500))
            let code = try #require(window.transcript.boundRow(for: model.conversation[1].id)?.reply.codeBlocks.first)
            let final = gtk_widget_get_height(code.widget)
            #expect(final > 27 * 12, "27 lines of code: \(final) px")
            #expect(!heights.seen.isEmpty, "frames showed the block")
            #expect(heights.seen.allSatisfy { $0 == final }, "its height frame by frame: \(heights.seen), at rest \(final)")
        }

        @Test("A code block wider than the reply's text is as wide as the window allows, not as narrow as the paragraph above it")
        func wideCodeTakesTheWidthThereIs() async throws {
            let (app, window) = try await launch("widecode")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            try await send("wide code")
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: model.conversation[1].id))
            let code = try #require(row.reply.codeBlocks.first)
            let paragraph = try #require(GtkTestHarness.mappedLabel("A paragraph before the code.", in: row.root))
            let width = gtk_widget_get_width(code.widget), room = gtk_widget_get_width(window.transcript.widget)
            #expect(width >= min(600, room - 120), "the block \(width) px wide in a transcript of \(room) px")
            var paragraphWidth: Int32 = 0
            gtk_widget_measure(paragraph, GTK_ORIENTATION_HORIZONTAL, -1, nil, &paragraphWidth, nil, nil)
            #expect(width > 2 * paragraphWidth, "wider than the paragraph's text (\(paragraphWidth) px)")
            let sideways = try #require(code.horizontalAdjustment)
            #expect(gtk_adjustment_get_upper(sideways) > gtk_adjustment_get_page_size(sideways), "the longest lines still scroll sideways")
        }

        @Test("The wheel over a code block scrolls the conversation; Shift and the wheel scroll the code sideways")
        func wheelOverCodeScrollsTheConversation() async throws {
            let (app, window) = try await launch("widecode")
            defer { GtkTestHarness.close(app) }
            let adjustment = try await sendTallerThanTheView("wide code", in: window)
            let reply = try #require(window.viewModel.conversation.messages.last)
            let code = try #require(window.transcript.boundRow(for: reply.id)?.reply.codeBlocks.first)
            try await GtkTestHarness.laidOut(code.widget)
            let sideways = try #require(code.horizontalAdjustment)
            #expect(gtk_adjustment_get_upper(sideways) > gtk_adjustment_get_page_size(sideways), "the code is wider than its block")

            let end = gtk_adjustment_get_value(adjustment)
            try await Xdo.scroll(code.widget, up: true, clicks: 3)
            try await GtkTestHarness.pump(until: { gtk_adjustment_get_value(adjustment) < end }, "the conversation scrolled up")
            #expect(gtk_adjustment_get_value(sideways) == 0, "the code did not move sideways")

            let up = gtk_adjustment_get_value(adjustment)
            try await GtkTestHarness.laidOut(code.widget)
            try await Xdo.scroll(code.widget, up: false, clicks: 2, holding: "shift")
            try await GtkTestHarness.pump(until: { gtk_adjustment_get_value(sideways) > 0 }, "the code scrolled sideways")
            #expect(gtk_adjustment_get_value(adjustment) == up, "the conversation stayed")
        }

        @Test("What the model wrote before calling tools reads above their lines, as it was written; the answer after them below",
              arguments: [
                  // Words, then two calls in one round, then the answer.
                  ("tools-several", "Let me look.\n\nTool results: ", "wllw"),
                  // Words and a call, more words and another call, then the answer.
                  ("tools-tworounds", "Let me look.\n\nNow the time.\n\nTool results: ", "wlwlw"),
              ])
        func textBeforeToolCalls(scenario: String, shown: String, order: String) async throws {
            let (app, window) = try await launch("\(scenario)/\(uniqueMarker())", toolbox: try TestTools.toolbox())
            defer { GtkTestHarness.close(app) }
            try await send("Where and when am I?")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2 && !window.viewModel.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            #expect(row.displayedText.hasPrefix(shown), "\(row.displayedText)")
            // The words (w) and the tool lines (l), top to bottom.
            var words = row.reply.textWidgets[...]
            var lines = row.reply.toolLines.map(\.widget)[...]
            try #require(words.count == order.count { $0 == "w" } && lines.count == order.count { $0 == "l" })
            var tops: [Float] = []
            for kind in order {
                let widget = try #require(kind == "w" ? words.popFirst() : lines.popFirst())
                var bounds = graphene_rect_t()
                try #require(gtk_widget_compute_bounds(widget, row.reply.widget, &bounds) != 0)
                tops.append(bounds.origin.y)
            }
            #expect(tops == tops.sorted() && Set(tops).count == order.count, "\(tops)")
        }

        @Test("Markdown: blocks render as they complete; code is highlighted and its Copy button copies it; hostile text stays text")
        func markdownReply() async throws {
            // The server holds the reply in the middle of its code block until released.
            let scenario = server.gate(reply: "markdown")
            let (app, window) = try await launch(scenario)
            defer { GtkTestHarness.close(app) }
            try await send("How do I reverse a string?")
            // Mid-stream: the heading is done (rendered), the code fence is still open (plain).
            let streaming = try await replyRow(in: window, once: { $0.contains("let flipped") }, "the code block to be half written")
            #expect(streaming.reply.codeBlocks.isEmpty, "an unfinished code block is not rendered yet")
            #expect(streaming.displayedText.hasPrefix("Reversing a string\n\nUse reversed() — it works on any sequence:"))
            let tail = try #require(streaming.reply.tailView, "the block being written streams into a text view")
            #expect(tail.text.hasPrefix("```swift") && tail.text.contains("let flipped"))

            let row = try await finishedReplyRow(in: window, releasing: scenario)
            #expect(row.reply.tailView == nil, "once the reply ends, all of it is rendered")
            let code = try #require(row.reply.codeBlocks.first)
            #expect(row.reply.codeBlocks.count == 1)
            #expect(code.code == "let word = \"stressed\"\nlet flipped = String(word.reversed())\nprint(flipped) // desserts")
            #expect(!row.displayedText.contains("```"))
            #expect(row.displayedText.contains("and <span foreground=\"red\">safe</span> & sound"), "shown as the text it is")

            try await Xdo.click(code.copyButton)
            #expect(try await GtkTestHarness.readClipboard(when: { $0 == code.code }) == code.code)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Copied") }, "the “Copied” toast")
        }

        @Test("Between two paragraphs of a streaming reply the bubble ends with the finished paragraph (no blank line), no narrower than its lines; finished, as wide as its widest line")
        func paragraphKeepsItsWidth() async throws {
            // Held after the blank line that ends the first paragraph: the block being written is empty.
            let scenario = server.gate(reply: "paragraphs")
            let (app, window) = try await launch(scenario)
            defer { GtkTestHarness.close(app) }
            try await send("Write two paragraphs")
            let row = try await replyRow(in: window, once: { $0.hasSuffix("way.\n\n") }, "the first paragraph and the blank line after it")
            try await GtkTestHarness.settle(window)
            let tail = try #require(row.reply.tailView, "the next block streams into a text view")
            #expect(tail.text.isEmpty, "nothing of the second paragraph yet")
            let paragraph = try #require(row.reply.textWidgets.first)
            #expect(row.reply.textWidgets.count == 2, "the first paragraph rendered, then the text view")
            #expect(row.displayedText == "The first paragraph runs on for long enough to wrap over several lines in the bubble, "
                + "so that it is as wide as the column rather than as one short line; it should keep that "
                + "width while the next paragraph is on its way.")
            #expect(gtk_widget_get_visible(tail.widget) == 0, "the empty text view is hidden")
            #expect(gtk_widget_get_height(row.reply.widget) == gtk_widget_get_height(paragraph),
                    "nothing under the paragraph: no blank line at the bubble's end")
            // At least as wide as its lines (narrower, it would wrap again), at most as wide as
            // the text view it streamed in, `maxWidthChars` average characters of its font.
            let metrics = pango_context_get_metrics(gtk_widget_get_pango_context(paragraph), nil, nil)
            defer { pango_font_metrics_unref(metrics) }
            let charWidth = max(pango_font_metrics_get_approximate_char_width(metrics),
                                pango_font_metrics_get_approximate_digit_width(metrics))
            let readingWidth = (charWidth * StackedLabel.maxWidthChars + PANGO_SCALE / 2) / PANGO_SCALE
            var lines: Int32 = 0
            gtk_widget_measure(paragraph, GTK_ORIENTATION_HORIZONTAL, -1, nil, &lines, nil, nil)
            #expect(gtk_widget_get_width(paragraph) >= lines && gtk_widget_get_width(paragraph) <= readingWidth)
            #expect(lines < readingWidth)

            let finished = try await finishedReplyRow(in: window, releasing: scenario)
            #expect(finished.reply.tailView == nil)
            #expect(finished.displayedText.hasSuffix("a word at a time."))
            // Finished, the bubble is as wide as its widest line again.
            try await GtkTestHarness.settle(window)
            let widest = finished.reply.textWidgets.map { widget -> Int32 in
                var natural: Int32 = 0
                gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
                return natural
            }.max()
            #expect(gtk_widget_get_width(try #require(finished.reply.textWidgets.first)) == widest)
            #expect((widest ?? 0) < readingWidth, "this reply's lines are narrower than the text view")
        }

        @Test("Emoji pasted into a message and echoed in the reply are drawn from a font that has them, not as boxes (the set-up installs an emoji font)")
        func emojiHaveAFont() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            // Pasted from another app: xdotool types only ASCII reliably.
            try await GtkTestHarness.setClipboard("A tree 🌳 and a smile 😊")
            try await Xdo.key("ctrl+v")
            try await GtkTestHarness.pump(until: { window.composer.input.text == "A tree 🌳 and a smile 😊" }, "the paste")
            try await Xdo.key("Return")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            #expect(model.conversation[0].text == "A tree 🌳 and a smile 😊")
            for message in [model.conversation[0], model.conversation[1]] {
                let row = try #require(window.transcript.boundRow(for: message.id))
                let shown = GtkTestHarness.labelWidgets(in: row.root).filter { GtkTestHarness.label($0).contains("🌳") }
                #expect(!shown.isEmpty, "the \(message.role) row shows the emoji")
                for label in shown {
                    #expect(pango_layout_get_unknown_glyphs_count(gtk_label_get_layout(label.opaque)) == 0,
                            "every character of “\(GtkTestHarness.label(label))” has a glyph")
                }
            }
        }

        @Test("A table of three wrapping columns still fits a phone's width: its cells wrap at words")
        func tableFitsAPhone() async throws {
            let (app, window) = try await launch("table")
            defer { GtkTestHarness.close(app) }
            try await send("Compare them")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: model.conversation[1].id))
            #expect(row.displayedText.contains("about one hundred million weights"))
            var minimum: Int32 = 0
            gtk_widget_measure(row.root, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
            #expect(minimum <= 320, "the chat page is 320 px at its narrowest; the table's row needs \(minimum) px")
        }

        @Test("A reply streamed in pieces looks, once it ends, as it does when the chat is opened again (reference links, a list item's paragraphs and code)")
        func streamedMarkdownIsRenderedWholeAtTheEnd() async throws {
            let (app, window) = try await launch("refs")
            defer { GtkTestHarness.close(app) }
            try await send("Tell me how")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let reply = model.conversation[1]
            let live = try #require(window.transcript.boundRow(for: reply.id))
            // A row given the finished reply, as when the chat is opened again.
            let fresh = MessageRow(actions: MessageRow.Handlers(copy: { _, _ in }, copyText: { _, _ in }, edit: { _ in }, regenerate: { _ in }, openFile: { _, _ in }, openSource: { _, _ in }))
            g_object_ref_sink(fresh.root.raw)
            defer { g_object_unref(fresh.root.raw) }
            fresh.bind(reply)
            #expect(live.displayedText == fresh.displayedText)
            #expect(live.displayedText.contains("See the manual first."), "the reference link resolved: \(live.displayedText)")
            #expect(!live.displayedText.contains("[man]"))
            #expect(live.displayedText.contains("Then run it."))
            #expect(live.reply.codeBlocks.map(\.code) == ["make install"], "the fence inside the list item is code")
        }

        @Test("Text selected in a reply and copied is the text written: no invisible characters in a long URL")
        func copiedSelectionIsTheTextWritten() async throws {
            let (app, window) = try await launch("longurl")
            defer { GtkTestHarness.close(app) }
            try await send("Where is it?")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.isSending }, "the reply")
            try await GtkTestHarness.settle(window)
            let reply = model.conversation[1]
            let row = try #require(window.transcript.boundRow(for: reply.id))
            let label = try #require(GtkTestHarness.descendant(ofType: "GtkLabel", in: row.reply.widget))
            #expect(!GtkTestHarness.label(label).contains("\u{200B}"))
            #expect(gtk_widget_get_width(label) < gtk_widget_get_width(window.window), "the URL wraps inside the column")
            try await Xdo.click(label, x: 4, y: 4)
            try await Xdo.key("ctrl+a", "ctrl+c")
            let copied = try await GtkTestHarness.readClipboard(when: { $0 == reply.text })
            #expect(copied == reply.text, "copied: \(copied.debugDescription)")
            #expect(!copied.contains("\u{200B}"))
        }
    }
}
