import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A reasoning model's reply in the window: its thinking streams into a collapsed
    /// Thinking section above the answer, which a click or Enter opens, and Copy leaves out.
    @MainActor
    @Suite("Reasoning in the window (GTK under Xvfb)", .serialized)
    struct ReasoningWindowTests {
        let server = TestServer.shared
        static let thought = "The user says hello. I should greet them back."
        static let answer = "Hello! How can I help?"

        /// Waits until `widget` has its place and size on screen, so that a click lands on it.
        func laidOut(_ widget: UnsafeMutablePointer<GtkWidget>) async throws {
            try await GtkTestHarness.pump(until: {
                var bounds = graphene_rect_t()
                guard gtk_widget_get_mapped(widget) != 0, let root = gtk_widget_get_root(widget),
                      gtk_widget_compute_bounds(widget, UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self), &bounds) != 0
                else { return false }
                return bounds.size.width > 0 && bounds.size.height > 0
            }, "the Thinking section laid out")
            GtkTestHarness.pumpPending()
        }

        @Test("The thinking streams collapsed as “Thinking…”, then “Thought for N seconds”; a click opens it; Copy leaves it out")
        func thinkingSection() async throws {
            let scenario = "think-tags-10-held-\(uniqueMarker())"
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "qwen3"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await Xdo.type("hi")
            try await Xdo.key("Return")
            let viewModel = window.viewModel
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 }, "the reply to start")
            let replyID = viewModel.conversation[1].id

            // The server holds the answer back: the model is still thinking.
            try await GtkTestHarness.pump(until: {
                window.transcript.boundRow(for: replyID)?.reply.thinking?.thinkingText == Self.thought
            }, "the thinking streamed into its section")
            let row = try #require(window.transcript.boundRow(for: replyID))
            let section = try #require(row.reply.thinking)
            #expect(section.titleText == "Thinking…")
            #expect(!section.isExpanded, "collapsed while it streams")
            #expect(GtkTestHarness.isMapped(section.widget))
            #expect(row.displayedText == "", "no answer yet, and no “…” under the thinking")
            #expect(viewModel.conversation[1].text.isEmpty)

            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "the answer")
            try await GtkTestHarness.settle(window)
            #expect(row.displayedText == Self.answer)
            let title = section.titleText
            #expect(title.hasPrefix("Thought for ") && (title.hasSuffix(" second") || title.hasSuffix(" seconds")), "\(title)")
            #expect(!section.isExpanded, "still collapsed once answered")
            let thinkingView = section.thinkingWidget
            #expect(!GtkTestHarness.isMapped(thinkingView))

            try await laidOut(section.widget)
            try await Xdo.click(section.widget)
            try await GtkTestHarness.pump(until: { section.isExpanded && GtkTestHarness.isMapped(thinkingView) }, "the section to open")
            #expect(section.thinkingText == Self.thought)
            #expect(GtkTestHarness.descendant(withCSSClass: "dim-label", in: thinkingView) != nil, "dim")

            gtk_widget_grab_focus(section.widget)
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !section.isExpanded }, "Enter to close the section")
            try await Xdo.key("space")
            try await GtkTestHarness.pump(until: { section.isExpanded }, "Space to open it again")

            try await Xdo.click(row.copyButton)
            let copied = try await GtkTestHarness.readClipboard(when: { $0 == Self.answer })
            #expect(copied == Self.answer, "Copy takes the answer alone")
            #expect(viewModel.conversation[1].reasoning?.text == Self.thought)
        }
    }
}
