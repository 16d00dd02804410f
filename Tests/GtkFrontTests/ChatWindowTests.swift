import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The real window under Xvfb, driven as a user would: type, press Enter, watch the
    /// reply stream into the transcript, copy it, meet the error alert.
    @MainActor
    @Suite("Chat window (GTK under Xvfb)", .serialized)
    struct ChatWindowTests {
        let server = TestServer.shared

        func launch(_ scenario: String) throws -> (AgentApplication, ChatWindow) {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "configured-model"))
            let window = try #require(app.window)
            return (app, window)
        }

        func type(_ text: String, into window: ChatWindow) {
            window.composer.input.enter(text)
        }

        @Test func theWindowShowsTitleModelAndAnEmptyComposer() async throws {
            let (app, window) = try launch("echo")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window on screen")
            #expect(String(cString: gtk_window_get_title(window.window.cast())) == "Agent")
            #expect(window.header.subtitleText == "configured-model · 127.0.0.1")
            #expect(window.composer.input.placeholderText == "Type a message…")
            #expect(window.composer.input.placeholderShown)
            #expect(!GtkTestHarness.isSensitive(window.composer.sendButton), "Send is disabled while the entry is empty")
            #expect(!GtkTestHarness.isVisible(window.composer.stopButton))
            type("   ", into: window)
            #expect(!GtkTestHarness.isSensitive(window.composer.sendButton), "blank text cannot be sent")
            type("hello", into: window)
            #expect(GtkTestHarness.isSensitive(window.composer.sendButton))
        }

        @Test("Enter sends; the reply streams into its row; Send is busy until it ends")
        func sendingStreamsTheReply() async throws {
            let (app, window) = try launch("slow-25")
            defer { GtkTestHarness.close(app) }
            type("What is streaming?", into: window)
            window.composer.input.submit()

            #expect(window.composer.input.text.isEmpty)
            #expect(!GtkTestHarness.isSensitive(window.composer.sendButton), "no second send while sending")
            #expect(GtkTestHarness.isVisible(window.composer.stopButton))
            let viewModel = window.viewModel
            #expect(viewModel.conversation.count == 2)
            let replyID = viewModel.conversation[1].id

            var snapshots: [String] = []
            try await GtkTestHarness.pump(until: {
                if let text = window.transcript.boundRow(for: replyID)?.displayedText, snapshots.last != text {
                    snapshots.append(text)
                }
                return !viewModel.isSending
            }, "the reply to finish")
            try await GtkTestHarness.pump(for: .milliseconds(100))

            let reply = viewModel.conversation[1]
            #expect(reply.state == .done)
            let row = try #require(window.transcript.boundRow(for: replyID))
            #expect(row.displayedText == reply.text)
            #expect(reply.text.hasPrefix("Streaming reply to: What is streaming?"))
            #expect(snapshots.count > 3, "the row grew token by token: \(snapshots)")
            #expect(String(cString: gtk_label_get_text(OpaquePointer(row.authorLabel))) == "assistant (test-model)")
            #expect(gtk_widget_get_halign(row.root) == GTK_ALIGN_START)
            let userRow = try #require(window.transcript.boundRow(for: viewModel.conversation[0].id))
            #expect(userRow.displayedText == "What is streaming?")
            #expect(gtk_widget_get_halign(userRow.root) == GTK_ALIGN_END)
            #expect(!GtkTestHarness.isVisible(window.composer.stopButton))
            let focus = try #require(gtk_window_get_focus(window.window.cast()), "something has the focus")
            #expect(focus == window.composer.input.textView, "the focus is back in the message field for the next message")
        }

        @Test("Copy puts the reply on the clipboard, read back through the X server")
        func copyButton() async throws {
            let (app, window) = try launch("echo")
            defer { GtkTestHarness.close(app) }
            type("copy me", into: window)
            agent_emit_signal(window.composer.sendButton.raw, "clicked")
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply")
            let reply = window.viewModel.conversation[1]
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(GtkTestHarness.isVisible(row.copyButton))
            agent_emit_signal(row.copyButton.raw, "clicked")

            let pasted = try await GtkTestHarness.readClipboard()
            #expect(pasted == reply.text)
            #expect(pasted == "Echo: copy me (1 messages)")
        }

        @Test("HTTP 500: the LLM Error alert, and the user's message is still there")
        func httpErrorAlert() async throws {
            let (app, window) = try launch("http500")
            defer { GtkTestHarness.close(app) }
            type("Will this fail?", into: window)
            window.composer.input.submit()
            try await GtkTestHarness.pump(until: { window.alertShowing }, "the alert")

            if agent_gtk_has_alert_dialog() == 0 {
                let alert = try #require(window.alertWindow)
                try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(UnsafeMutableRawPointer(alert).assumingMemoryBound(to: GtkWidget.self)) != 0 }, "the alert on screen")
                #expect(String(cString: gtk_window_get_title(alert)) == "LLM Error")
                let texts = GtkTestHarness.labelTexts(in: UnsafeMutableRawPointer(alert).assumingMemoryBound(to: GtkWidget.self))
                #expect(texts.contains("LLM Error"))
                #expect(texts.contains { $0.contains("500") && $0.contains("the model crashed") })
                gtk_dialog_response(UnsafeMutableRawPointer(alert).assumingMemoryBound(to: GtkDialog.self), GTK_RESPONSE_OK.rawValue)
            }
            let user = window.viewModel.conversation[0]
            #expect(user.text == "Will this fail?")
            #expect(user.state == .failed)
            let row = try #require(window.transcript.boundRow(for: user.id))
            #expect(row.displayedText == "Will this fail?")
            #expect(String(cString: gtk_label_get_text(OpaquePointer(row.stateLabel))) == "Not delivered")
            #expect(window.composer.input.text == "Will this fail?", "the text is back in the entry")
            #expect(GtkTestHarness.isSensitive(window.composer.sendButton), "and can be sent again")
            if agent_gtk_has_alert_dialog() == 0 {
                try await GtkTestHarness.pump(until: { !window.alertShowing }, "the alert to close")
                #expect(!window.viewModel.showError)
            }
        }

        @Test("First use of get_location: the consent dialog; Deny gives the model a refusal; the call shows in the reply")
        func locationConsentDialog() async throws {
            let consent = ConsentBroker()
            let settings = SettingsStore(file: TestTools.temporarySettingsFile())
            let toolbox = Toolbox.standard(settings: settings, locationSource: nil, askConsent: { await consent.ask() })
            let marker = uniqueMarker()
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("tools-single/\(marker)"), model: "m"),
                                                toolbox: toolbox, consent: consent)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            type("Where am I?", into: window)
            window.composer.input.submit()
            try await GtkTestHarness.pump(until: { window.consentShowing }, "the consent dialog")
            if agent_gtk_has_alert_dialog() == 0 {
                let dialog = try #require(window.consentWindow)
                let dialogWidget = UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkWidget.self)
                try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(dialogWidget) != 0 }, "the dialog on screen")
                #expect(String(cString: gtk_window_get_title(dialog)) == "Share your location?")
                let texts = GtkTestHarness.labelTexts(in: dialogWidget)
                for button in ["Deny", "Allow Once", "Always Allow"] { #expect(texts.contains(button), "\(texts)") }
                #expect(texts.contains { $0.contains("get_location") })
                gtk_dialog_response(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkDialog.self), 0)
            } else {
                window.viewModel.answerConsent(.deny)
            }
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply")
            try await GtkTestHarness.pump(for: .milliseconds(60))
            let reply = window.viewModel.conversation[1]
            #expect(reply.toolCalls.first?.result == "Error: the user declined to share their location")
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(row.toolLines.count == 1)
            #expect(row.toolLines.first?.summaryText == "Tool get_location() → Error: the user declined to share their location")
            #expect(row.displayedText == "Tool results: Error: the user declined to share their location")
            let followUp = try await server.requests(containing: marker).last
            let messages = (followUp?["body"] as? [String: Any])?["messages"] as? [[String: Any]]
            #expect(messages?.last?["content"] as? String == "Error: the user declined to share their location")
            #expect(!settings.locationAlwaysAllowed)
            #expect(!window.consentShowing)
        }

        @Test("Markdown: blocks render as they complete; code is highlighted and copies; hostile text stays text")
        func markdownReply() async throws {
            let (app, window) = try launch("markdown-30")
            defer { GtkTestHarness.close(app) }
            type("How do I reverse a string?", into: window)
            window.composer.input.submit()
            let model = window.viewModel
            // Mid-stream: the heading is done (rendered), the code fence is still open (plain).
            try await GtkTestHarness.pump(until: {
                model.conversation.count == 2 && model.conversation[1].text.contains("let flipped")
            }, "the code block to be half written")
            try await GtkTestHarness.pump(for: .milliseconds(40))
            let streaming = try #require(window.transcript.boundRow(for: model.conversation[1].id))
            #expect(streaming.codeBlocks.isEmpty, "an unfinished code block is not rendered yet")
            #expect(streaming.displayedText.hasPrefix("Reversing a string\n\nUse reversed() — it works on any sequence:"))
            #expect(streaming.displayedText.contains("```swift"), "the block being written shows as plain text")
            let tail = try #require(streaming.tailView, "the block being written streams into a text view")
            #expect(tail.text.hasPrefix("```swift") && tail.text.contains("let flipped"))

            try await GtkTestHarness.pump(until: { !model.isSending }, "the reply to finish")
            try await GtkTestHarness.pump(for: .milliseconds(60))
            let row = try #require(window.transcript.boundRow(for: model.conversation[1].id))
            #expect(row.tailView == nil, "once the reply ends, all of it is rendered")
            let code = try #require(row.codeBlocks.first)
            #expect(row.codeBlocks.count == 1)
            #expect(code.code == "let word = \"stressed\"\nlet flipped = String(word.reversed())\nprint(flipped) // desserts")
            #expect(!row.displayedText.contains("```"))
            #expect(row.displayedText.contains("and <span foreground=\"red\">safe</span> & sound"), "shown as the text it is")
            #expect(row.displayedText.contains("Python"))

            agent_emit_signal(code.copyButton.raw, "clicked")
            #expect(window.toast.isShown && window.toast.text == "Copied")
            #expect(try await GtkTestHarness.readClipboard() == code.code)
        }

        @Test("Stop (Escape's action) ends the stream and keeps what arrived")
        func stopKeepsThePartialReply() async throws {
            let (app, window) = try launch("stall")
            defer { GtkTestHarness.close(app) }
            type("wait for it", into: window)
            window.composer.input.submit()
            let viewModel = window.viewModel
            try await GtkTestHarness.pump(until: { viewModel.conversation.count == 2 && viewModel.conversation[1].text == "Waiting" }, "the first token")
            gtk_widget_activate_action_variant(window.window, "win.stop", nil)
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "the stream to stop")
            try await GtkTestHarness.pump(for: .milliseconds(60))
            let reply = viewModel.conversation[1]
            #expect(reply.state == .stopped)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(row.displayedText == "Waiting")
            #expect(String(cString: gtk_label_get_text(OpaquePointer(row.stateLabel))) == "Stopped")
            #expect(!viewModel.showError)
        }

        @Test("The transcript follows new text at the bottom and leaves a reader who scrolled up alone")
        func followsNewestOnlyAtTheBottom() async throws {
            let (app, window) = try launch("slow-8")
            defer { GtkTestHarness.close(app) }
            let viewModel = window.viewModel
            let adjustment = gtk_scrolled_window_get_vadjustment(window.transcript.widget.opaque)
            func bottom() -> Double { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) }
            func value() -> Double { gtk_adjustment_get_value(adjustment) }
            func send(_ text: String) {
                type(text, into: window)
                window.composer.input.submit()
            }
            for turn in 0..<6 {
                send("message number \(turn) " + String(repeating: "with some words ", count: 12))
                try await GtkTestHarness.pump(until: { !viewModel.isSending }, "reply \(turn)")
            }
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(bottom() > 0, "the conversation is taller than the window")
            #expect(value() >= bottom() - 2, "at the bottom after the replies")

            // While the next reply streams, the reader scrolls to the top: the growing reply
            // must not pull them back down.
            send("one more")
            try await GtkTestHarness.pump(until: { viewModel.conversation.messages.last?.text.isEmpty == false }, "the reply to start")
            gtk_adjustment_set_value(adjustment, 0)
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "the reply to finish")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(!window.transcript.followsNewest)
            #expect(value() < 2, "still where the reader left it")

            // Back at the bottom, it follows again.
            gtk_adjustment_set_value(adjustment, bottom())
            try await GtkTestHarness.pump(for: .milliseconds(30))
            #expect(window.transcript.followsNewest)
            send("and the last")
            try await GtkTestHarness.pump(until: { !viewModel.isSending }, "the last reply")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(value() >= bottom() - 2)
        }
    }
}
