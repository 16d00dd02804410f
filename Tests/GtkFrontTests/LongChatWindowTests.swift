@testable import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A long chat in the window under Xvfb: earlier pages load in above the rows on screen
    /// and later ones below, the far end is let go of, and the view never jumps, whether the
    /// rows are short or tall.
    @MainActor
    @Suite("A long chat in the window (GTK under Xvfb)", .serialized)
    struct LongChatWindowTests: StoredChatWindowSuite {
        @Test("Rows find their message by id: while earlier pages load in above them and later ones below, and the far end is let go of, no row shows another message")
        func rowsShowTheirOwnMessage() async throws {
            let (app, window) = try await launch(chatOf: Self.turns(200) { "Message number \($0)" }, titled: "Paged")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            #expect(model.conversation.count == ChatPager.pageSize)
            try await GtkTestHarness.settle(window)
            let newest = try #require(model.conversation.messages.last)
            let shown = try #require(window.transcript.boundRow(for: newest.id)?.reply.textWidgets.first)
            var turns = 0
            while model.conversation.count == ChatPager.pageSize, turns < 20 {
                try await Xdo.scroll(window.transcript.widget, up: true, clicks: 10)
                try await GtkTestHarness.pump(for: .milliseconds(100))
                turns += 1
            }
            #expect(model.conversation.count > ChatPager.pageSize, "earlier messages came")
            #expect(window.transcript.boundRow(for: newest.id)?.reply.textWidgets.first == shown,
                    "a row whose message moved down keeps its widgets, not built anew")
            var checks = 0
            func checkRows() {
                for message in model.conversation.messages {
                    guard let row = window.transcript.boundRow(for: message.id) else { continue }
                    #expect(row.displayedText == message.text, "a row shows \(row.displayedText) for \(message.text)")
                    checks += 1
                }
            }
            while model.pager?.hasEarlier == true {
                try await Xdo.scroll(window.transcript.widget, up: true, clicks: 10)
                checkRows()
            }
            #expect(model.conversation.messages.first?.text == "Message number 0", "every earlier page came in")
            #expect(model.conversation.count <= model.loadedLimit, "the newest were let go of")
            #expect(model.pager?.hasLater == true)
            #expect(checks > 100)

            // Back down: the later messages come again, the oldest go, and the newest is shown.
            checks = 0
            while model.pager?.hasLater == true {
                try await Xdo.scroll(window.transcript.widget, up: false, clicks: 10)
                checkRows()
            }
            #expect(model.conversation.messages.last?.id == newest.id)
            #expect(model.conversation.count <= model.loadedLimit + 2, "the oldest were let go of")
            #expect(checks > 100)
            let adjustment = window.transcript.adjustment
            func atBottom() -> Bool { gtk_adjustment_get_value(adjustment) >= gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - 1 }
            turns = 0
            while !atBottom() || window.transcript.boundRow(for: newest.id) == nil, turns < 40 {
                try await Xdo.scroll(window.transcript.widget, up: false, clicks: 10)
                try await GtkTestHarness.pump(for: .milliseconds(50))
                turns += 1
            }
            #expect(atBottom() && window.transcript.boundRow(for: newest.id)?.displayedText == newest.text, "the newest message at the bottom")
        }

        // Without the guard in `fillNearEnds` the two ends load and let go of each other in every
        // frame: the transcript never settles, and the settle after Page Down times out.
        @Test("Rows so short that all that may be loaded lies near both ends of the view: only an end the view has reached loads more, and the view between them stays still")
        func bothEndsInViewLoadOnlyWhenReached() async throws {
            let (app, window) = try await launch(chatOf: Self.turns(400) { "Note \($0)" }, titled: "Short")
            defer { GtkTestHarness.close(app) }
            // The most that may be loaded (120 rows) within a few pages of the view: the screen
            // is 800 px high, so the rows are made a few pixels high rather than the window tall.
            let display = try #require(gdk_display_get_default())
            let tiny = gtk_css_provider_new()
            let css = ".transcript * { font-size: 2px; -gtk-icon-size: 1px; min-height: 0; min-width: 0; margin: 0; padding: 0; border-spacing: 0; }"
            gtk_css_provider_load_from_data(tiny, css, -1)
            gtk_style_context_add_provider_for_display(display, OpaquePointer(tiny), guint(GTK_STYLE_PROVIDER_PRIORITY_USER))
            defer {
                gtk_style_context_remove_provider_for_display(display, OpaquePointer(tiny))
                g_object_unref(UnsafeMutableRawPointer(tiny))
            }
            try await GtkTestHarness.settle(window)
            let model = window.viewModel
            let adjustment = window.transcript.adjustment
            window.composer.input.focus()

            // Page Up to the top: each press there loads earlier messages, and the newest go.
            var presses = 0
            while model.pager?.hasLater != true, presses < 100 {
                try await Xdo.key("Page_Up")
                try await GtkTestHarness.pump(for: .milliseconds(100))
                presses += 1
            }
            try #require(model.pager?.hasLater == true, "earlier messages came and the newest were let go of")
            #expect(model.conversation.count == model.loadedLimit)
            // Near both ends (under four pages), yet a page down stops short of the bottom (over two).
            let page = gtk_adjustment_get_page_size(adjustment), upper = gtk_adjustment_get_upper(adjustment)
            try #require(upper < 4 * page && upper > 2 * page, "all that may be loaded makes \(upper) px against a page of \(page)")

            // One page down, between the ends: nothing loads, frame after frame.
            try await Xdo.key("Page_Down")
            try await GtkTestHarness.settle(window, timeout: .seconds(5))
            let value = gtk_adjustment_get_value(adjustment)
            #expect(value > 0 && value < gtk_adjustment_get_upper(adjustment) - page, "the view between the ends")
            let loaded = model.conversation.messages.map(\.id)
            for _ in 0..<10 {
                try await GtkTestHarness.pump(for: .milliseconds(50))
                #expect(model.conversation.messages.map(\.id) == loaded, "messages loaded and let go of with the view still")
            }
        }

        @Test("The wheel through a long chat of short and tall replies, up to the first message and back down to the newest: the view never jumps back")
        func wheelThroughALongChatNeverJumps() async throws {
            let tall = (1...40).map { "Line \($0) of a long answer." }.joined(separator: "\n\n")
            // Two questions in a row halfway (one went unanswered), so pages loaded in pairs end
            // on a question in one half and on an answer in the other.
            let messages = (0..<320).map { index in
                let asked = (index + (index > 160 ? 1 : 0)) % 2 == 0
                return ChatMessage(role: asked ? .user : .assistant,
                                   text: asked ? "Question \(index)" : (index / 2) % 2 == 0 ? "Answer \(index)\n\n\(tall)" : "Answer \(index)",
                                   state: .done)
            }
            let place = Dictionary(uniqueKeysWithValues: messages.enumerated().map { ($0.element.id, $0.offset) })
            let (app, window) = try await launch(chatOf: messages, titled: "Long")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.settle(window)
            let adjustment = window.transcript.adjustment
            let model = window.viewModel

            /// Turns the wheel until `reached`, noting the message at the top after each turn.
            func wheel(up: Bool, until reached: () -> Bool) async throws -> [Int] {
                var tops: [Int] = []
                var turns = 0
                while !reached(), turns < 400 {
                    try await Xdo.scroll(window.transcript.widget, up: up, clicks: 20)
                    try await GtkTestHarness.settle(window)
                    if let top = window.transcript.topMessageID.flatMap({ place[$0] }) { tops.append(top) }
                    turns += 1
                }
                #expect(model.conversation.count <= model.loadedLimit + ChatPager.pageSize, "a bounded window stays loaded")
                return tops
            }

            let upward = try await wheel(up: true) { model.pager?.hasEarlier == false && gtk_adjustment_get_value(adjustment) == 0 }
            let pages = gtk_adjustment_get_upper(adjustment) / gtk_adjustment_get_page_size(adjustment)
            #expect(model.loadedLimit == ChatPager.pageSize && pages >= TranscriptView.loadedPages,
                    "these rows are tall: a page of messages makes more than \(TranscriptView.loadedPages) pages of the view (\(pages))")
            #expect(model.conversation.messages.first?.id == messages.first?.id && gtk_adjustment_get_value(adjustment) == 0,
                    "the first message reached")
            #expect(window.transcript.boundRow(for: messages[0].id)?.displayedText == messages[0].text)
            let newer = zip(upward, upward.dropFirst()).filter { $1 > $0 }
            #expect(newer.isEmpty, "scrolling up, the view moved to newer messages: \(newer)")

            let downward = try await wheel(up: false) {
                model.pager?.hasLater == false
                    && gtk_adjustment_get_value(adjustment) >= gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - 1
            }
            #expect(model.conversation.messages.last?.id == messages.last?.id, "the newest message reached")
            let older = zip(downward, downward.dropFirst()).filter { $1 < $0 }
            #expect(older.isEmpty, "scrolling down, the view moved to older messages: \(older)")
            let leaps = zip(downward, downward.dropFirst()).filter { $1 - $0 > 12 }
            #expect(leaps.isEmpty, "scrolling down, the view leapt past messages: \(leaps)")
        }
    }
}
