import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import TextLayout
import Testing

extension GtkSuites {
    /// A reply between `LongText.labelLimit` (32 KB) and `LongText.displayLimit` (64 KB): too
    /// long to render as Markdown in labels, short enough to show whole — as plain text, every
    /// byte of it; one just under the limit is still rendered.
    @MainActor
    @Suite("Long replies (GTK under Xvfb)", .serialized)
    struct LongReplyWindowTests {
        let server = TestServer.shared

        @Test("Past 32 KB a reply is shown as plain text, all of it, marks as written; just under 32 KB it is rendered as Markdown")
        func plainTextPastTheLabelLimit() async throws {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("sized"), model: "m"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let model = window.viewModel

            let under = LongText.labelLimit - 1024
            try await GtkTestHarness.send("\(under) bytes, please", in: window, settling: true)
            let rendered = model.conversation[1]
            #expect(rendered.state == .done && rendered.text.utf8.count == under)
            let renderedRow = try #require(window.transcript.boundRow(for: rendered.id))
            #expect(renderedRow.reply.longReply == nil, "under the limit: rendered")
            #expect(renderedRow.displayedText.hasPrefix("A long answer\n\nSome bold words and inline code"), "Markdown rendered")
            #expect(!renderedRow.displayedText.contains("**"))

            let over = LongText.labelLimit + 8 * 1024
            #expect(over < LongText.displayLimit)
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("\(over) bytes, please", in: window, timeout: .seconds(60), settling: true)
            let long = model.conversation[3]
            #expect(long.state == .done && long.text.utf8.count == over)
            let row = try #require(window.transcript.boundRow(for: long.id))
            let plain = try #require(row.reply.longReply, "past the limit: plain text")
            #expect(row.displayedText == long.text, "the whole reply, as written (\(row.displayedText.utf8.count) of \(over) bytes shown)")
            #expect(plain.text.hasPrefix("## A long answer\n\nSome **bold words** and `inline code`"), "Markdown's marks as they are")
            #expect(row.reply.codeBlocks.isEmpty)
            #expect(!GtkText.labels(in: row.reply.widget).contains { $0.contains("bold words") }, "no Markdown labels")
            #expect(GtkTestHarness.isVisible(plain.notice))
            #expect(String(cString: gtk_label_get_text(plain.notice.opaque)) == "A long reply, shown as plain text.")
            #expect(gtk_widget_get_tooltip_text(plain.notice) == nil, "nothing cut: no size to tell")
        }
    }
}
