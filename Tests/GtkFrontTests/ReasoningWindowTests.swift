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
        func laidOut(_ widget: UnsafeMutablePointer<GtkWidget>, _ what: String = "the Thinking section") async throws {
            try await GtkTestHarness.pump(until: {
                var bounds = graphene_rect_t()
                guard gtk_widget_get_mapped(widget) != 0, let root = gtk_widget_get_root(widget),
                      gtk_widget_compute_bounds(widget, UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self), &bounds) != 0
                else { return false }
                return bounds.size.width > 0 && bounds.size.height > 0
            }, "\(what) laid out")
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
            // Wider than the answer, the one-line thought sets the bubble's width, its margin
            // included: it does not wrap.
            try await GtkTestHarness.settle(window)
            let textView = try #require(gtk_widget_get_first_child(thinkingView))
            var iter = GtkTextIter()
            gtk_text_buffer_get_start_iter(gtk_text_view_get_buffer(textView.cast()), &iter)
            var lines = 1
            while gtk_text_view_forward_display_line(textView.cast(), &iter) != 0 { lines += 1 }
            #expect(lines == 1, "the thought on one line, not \(lines)")

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

        @Test("A stored reply's thinking comes back collapsed with its duration; opened, it stays open when the chat is opened again")
        func storedThinking() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-window-\(UUID())/chats.sqlite")
            let store = try ChatStore(file: file)
            let reply = ChatMessage(role: .assistant, text: Self.answer, model: "qwen3", state: .done,
                                    reasoning: Reasoning(text: Self.thought, seconds: 3.2))
            let greeting = try store.storeChat(ChatSummary(title: "Greeting", updated: Date()),
                                               messages: [ChatMessage(role: .user, text: "hi", state: .done), reply])
            let other = try store.storeChat(ChatSummary(title: "Other", updated: Date(timeIntervalSinceNow: -60)),
                                            messages: [ChatMessage(role: .user, text: "yo", state: .done),
                                                       ChatMessage(role: .assistant, text: "Yo.", state: .done)])
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "qwen3"), store: store,
                                                settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let chatList = try #require(window.sidebar).chatList

            func open(_ chat: ChatSummary) async throws {
                let row = try #require(chatList.row(for: chat.id))
                try await laidOut(row.root, "the chat “\(chat.title)” in the list")
                try await Xdo.click(row.root)
                try await GtkTestHarness.pump(until: { window.viewModel.chat?.id == chat.id && window.viewModel.conversation.count == 2 },
                                              "the chat “\(chat.title)” open")
                try await GtkTestHarness.settle(window)
            }

            try await open(greeting)
            let section = try #require(window.transcript.boundRow(for: reply.id)?.reply.thinking)
            #expect(section.titleText == "Thought for 3 seconds")
            #expect(!section.isExpanded)
            try await laidOut(section.widget)
            try await Xdo.click(section.widget)
            try await GtkTestHarness.pump(until: { section.isExpanded }, "the section to open")

            try await open(other)
            let otherReply = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            #expect(otherReply.reply.thinking.map { GtkTestHarness.isVisible($0.widget) } != true, "a reply without thinking shows none")
            try await open(greeting)
            let again = try #require(window.transcript.boundRow(for: reply.id)?.reply.thinking)
            #expect(again.isExpanded, "as the user left it")
            #expect(again.thinkingText == Self.thought)
        }
    }
}
