import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Versions of a message in the window under Xvfb, used through the X server: a reply
    /// regenerated from its menu, ‹ and › under it and Alt+Left / Alt+Right on its row, an
    /// edited message, Delete Version and its Undo.
    @MainActor
    @Suite("Message versions in the window (GTK under Xvfb)", .serialized)
    struct VersionsWindowTests: StoredChatWindowSuite {
        let server = TestServer.shared

        func launch(_ scenario: String) async throws -> (AgentApplication, ChatWindow) {
            try await launch(file: Self.temporaryFile(), settings: try TestTools.settings(), scenario: scenario)
        }

        func row(_ window: ChatWindow, _ index: Int) throws -> MessageRow {
            try #require(window.transcript.boundRow(for: window.viewModel.conversation[index].id), "row \(index) built")
        }

        /// The texts the rows show, in order.
        func shownTexts(_ window: ChatWindow) throws -> [String] {
            try window.viewModel.conversation.messages.indices.map { try row(window, $0).displayedText }
        }

        /// Right-clicks the message at `index` and chooses `item` in its menu.
        func choose(_ item: String, forMessageAt index: Int, in window: ChatWindow) async throws -> [String] {
            let row = try row(window, index)
            try await Xdo.click(row.bubble, button: 3, x: 12, y: 12)
            try await GtkTestHarness.pump(until: { row.menu.isOpen && GtkTestHarness.isMapped(row.menu.popover) }, "the menu")
            let items = row.menu.itemLabels
            let label = try #require(GtkTestHarness.reachableLabel(item, in: row.menu.popover), "“\(item)” in \(items)")
            try await Xdo.click(label)
            return items
        }

        func isSensitive(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { GtkTestHarness.isSensitive(widget) }

        @Test("An earlier reply regenerated from its menu shows ‹ 2/2 ›; ‹ brings back the old reply and what followed it, and Alt+Right on the focused row the new one")
        func regenerateAndSwitch() async throws {
            let (app, window) = try await launch("counter-\(uniqueMarker())")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            try await GtkTestHarness.send("first", in: window, settling: true)
            try await GtkTestHarness.send("second", in: window, settling: true)
            #expect(try shownTexts(window) == ["first", "Reply number 1 to: first", "second", "Reply number 2 to: second"])
            #expect(!GtkTestHarness.isVisible(try row(window, 1).versions.widget), "one version: no switcher")

            let items = try await choose("Regenerate Reply", forMessageAt: 1, in: window)
            #expect(items == ["Copy Reply", "Regenerate Reply", "Read Aloud", "Copy Chat as Markdown"], "any reply can be regenerated; nothing to delete yet")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2 }, "the new reply")
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["first", "Reply number 3 to: first"], "the new version replaces the branch shown")
            var reply = try row(window, 1)
            #expect(GtkTestHarness.isMapped(reply.versions.widget) && reply.versions.text == "2/2")
            #expect(isSensitive(reply.versions.previousButton) && !isSensitive(reply.versions.nextButton), "› is off at the last version")
            #expect(gtk_widget_get_tooltip_text(reply.versions.label).map { String(cString: $0) } == "Version 2 of 2")
            #expect(!GtkTestHarness.isVisible(try row(window, 0).versions.widget), "the question has one version")

            try await Xdo.click(reply.versions.previousButton)
            try await GtkTestHarness.pump(until: { model.conversation.count == 4 }, "the old branch")
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["first", "Reply number 1 to: first", "second", "Reply number 2 to: second"])
            reply = try row(window, 1)
            #expect(reply.versions.text == "1/2")
            #expect(!isSensitive(reply.versions.previousButton) && isSensitive(reply.versions.nextButton))
            // ‹ is off in the new row: the keyboard focus goes to ›.
            let next = reply.versions.nextButton
            try await GtkTestHarness.pump(until: { gtk_widget_has_focus(next) != 0 }, "the focus on › in the switched row")

            try await Xdo.key("alt+Right")
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 }, "Alt+Right to show the next version")
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["first", "Reply number 3 to: first"])
            reply = try row(window, 1)
            #expect(reply.versions.text == "2/2")
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(rowOf: reply.root) }, "the focus in the switched row")

            // From the reply's text, Alt+Left: the new row's text takes the focus.
            try await Xdo.click(reply.bubble, x: 20, y: 16)
            try await GtkTestHarness.pump(until: { reply.focusedPart == .row }, "the focus in the reply's text")
            try await Xdo.key("alt+Left")
            try await GtkTestHarness.pump(until: { model.conversation.count == 4 }, "Alt+Left to show the previous version")
            try await GtkTestHarness.settle(window)
            reply = try row(window, 1)
            #expect(reply.versions.text == "1/2")
            try await GtkTestHarness.pump(until: { reply.focusedPart == .row }, "the focus in the switched row's text")
            #expect(model.conversation.messages.map(\.text).last == "Reply number 2 to: second")
        }

        @Test("Clicking › keeps the keyboard on › in the new row while it can go on; the version buttons are off while a reply streams")
        func buttonsKeepTheFocusAndWaitForTheReply() async throws {
            let scenario = server.gate(passing: 1)
            let (app, window) = try await launch(scenario)
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            try await GtkTestHarness.send("stream", in: window, settling: true)
            try await Xdo.key("ctrl+shift+r")
            try await GtkTestHarness.pump(until: { model.isSending && model.conversation.count == 2 }, "the new reply to start")
            try await GtkTestHarness.settle(window)
            let reply = try row(window, 1)
            #expect(reply.versions.text == "2/2", "the new version is counted from its start")
            #expect(!isSensitive(reply.versions.previousButton) && !isSensitive(reply.versions.nextButton), "no switching while it streams")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { !model.isSending }, "the reply to end")
            try await GtkTestHarness.settle(window)
            #expect(isSensitive(reply.versions.previousButton))

            // A third version; then from 3/3 ‹ twice and › twice: the focus stays on the
            // button pressed while it can go on, and goes to the other one at an end.
            try await Xdo.key("ctrl+shift+r")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2 }, "the third version")
            try await GtkTestHarness.settle(window)
            #expect(try row(window, 1).versions.text == "3/3")
            try await Xdo.click(try row(window, 1).versions.previousButton)
            try await waitForFocus(on: { $0.versions.previousButton }, at: "2/3", in: window)
            try await Xdo.key("space")
            try await waitForFocus(on: { $0.versions.nextButton }, at: "1/3", in: window)
            try await Xdo.click(try row(window, 1).versions.nextButton)
            try await waitForFocus(on: { $0.versions.nextButton }, at: "2/3", in: window)
            try await Xdo.key("space")
            try await waitForFocus(on: { $0.versions.previousButton }, at: "3/3", in: window)
        }

        /// Waits until the reply's row shows version `place` and the focus is in `part` of it.
        func waitForFocus(on part: (MessageRow) -> UnsafeMutablePointer<GtkWidget>, at place: String, in window: ChatWindow) async throws {
            func reply() -> MessageRow? {
                guard window.viewModel.conversation.count > 1 else { return nil }
                return window.transcript.boundRow(for: window.viewModel.conversation[1].id)
            }
            try await GtkTestHarness.pump(until: { reply()?.versions.text == place }, "version \(place) shown")
            try await GtkTestHarness.pump(until: {
                guard let row = reply() else { return false }
                return gtk_widget_has_focus(part(row)) != 0
            }, "the focus in version \(place)'s row")
        }

        @Test("A message not delivered: sent again unchanged, it replaces the failed one; changed, it is a new version, ‹ showing the failed attempt")
        func retryAfterAFailure() async throws {
            let (app, window) = try await launch("failtwice-\(uniqueMarker())")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            /// Return in the entry, and OK in the alert that follows: the text is back in the entry.
            func sendAndDismissTheAlert() async throws {
                try await Xdo.key("Return")
                try await GtkTestHarness.pump(until: { window.alert != nil && !model.isSending }, "the alert")
                let alert = try #require(window.alert)
                try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(alert.window) }, "the alert on screen")
                try await Xdo.focus(alert.window)
                try await Xdo.key("Return")
                try await GtkTestHarness.pump(until: { window.alert == nil && gtk_window_is_active(window.window.cast()) != 0 }, "the window again")
            }
            try await Xdo.type("Are you there?")
            try await sendAndDismissTheAlert()
            #expect(window.composer.input.text == "Are you there?", "the text back in the entry")
            try await sendAndDismissTheAlert()
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["Are you there?"], "one copy of the question")
            var question = try row(window, 0)
            #expect(!GtkTestHarness.isVisible(question.versions.widget), "sent again unchanged: no failed version kept")
            #expect(GtkTestHarness.label(question.stateLabel) == "Not answered")
            let (chat, store) = (try #require(model.chat), try #require(model.store))
            #expect(try store.messageCount(in: chat.id) == 1, "the failed attempt gone from the store too")

            try await Xdo.key("End")
            try await Xdo.type(" Hello?")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2 }, "the reply to the changed message")
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["Are you there? Hello?", "Reply number 1 to: Are you there? Hello?"])
            question = try row(window, 0)
            #expect(GtkTestHarness.isMapped(question.versions.widget) && question.versions.text == "2/2")
            #expect(!GtkTestHarness.isVisible(question.stateLabel), "delivered: no mark")
            try await Xdo.click(question.versions.previousButton)
            try await GtkTestHarness.pump(until: { model.conversation.count == 1 }, "the failed attempt")
            try await GtkTestHarness.settle(window)
            question = try row(window, 0)
            #expect(question.versions.text == "1/2")
            #expect(try shownTexts(window) == ["Are you there?"])
            #expect(GtkTestHarness.label(question.stateLabel) == "Not answered")
        }

        @Test("An edited message shows 2/2; Delete Version deletes that version and what followed it at once, Undo brings them back, and a message sent after a delete ends its Undo")
        func editThenDeleteAndUndo() async throws {
            let (app, window) = try await launch("counter-\(uniqueMarker())")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            try await GtkTestHarness.send("first", in: window, settling: true)
            try await Xdo.click(try row(window, 0).editButton)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isVisible(window.composer.editingNotice) }, "the editing notice")
            try await Xdo.key("ctrl+a")
            try await Xdo.type("FIRST")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2
                && model.conversation[0].text == "FIRST" }, "the edited exchange")
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["FIRST", "Reply number 2 to: FIRST"])
            #expect(try row(window, 0).versions.text == "2/2")
            #expect(!GtkTestHarness.isVisible(try row(window, 1).versions.widget), "the reply to the edit has one version")

            let items = try await choose("Delete Version", forMessageAt: 0, in: window)
            #expect(items == ["Copy Message", "Edit and Send Again", "Copy Chat as Markdown", "Delete Version"])
            try await GtkTestHarness.pump(until: { model.conversation.messages.first?.text == "first" }, "the other version shown")
            try await Xdo.focus(window.window)
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["first", "Reply number 1 to: first"])
            #expect(!GtkTestHarness.isVisible(try row(window, 0).versions.widget), "one version left")
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts == ["Version deleted", "Undo"] }, "the toast")

            let undo = try GtkTestHarness.requireButton("Undo", in: window.toasts.overlay)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(undo) }, "Undo on screen")
            try await Xdo.click(undo)
            try await GtkTestHarness.pump(until: { model.conversation.messages.first?.text == "FIRST" }, "the version back")
            try await GtkTestHarness.settle(window)
            #expect(try shownTexts(window) == ["FIRST", "Reply number 2 to: FIRST"])
            #expect(try row(window, 0).versions.text == "2/2")

            // A message sent after a delete ends its Undo: bringing the version back would
            // take the new reply off the screen.
            _ = try await choose("Delete Version", forMessageAt: 0, in: window)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts == ["Version deleted", "Undo"] }, "the toast")
            // Clicked once the toast has risen above the field, as a person would.
            let field = window.composer.input.textView
            let undoAgain = try GtkTestHarness.requireButton("Undo", in: window.toasts.overlay)
            try await GtkTestHarness.pump(until: {
                var button = graphene_rect_t(), input = graphene_rect_t()
                return gtk_widget_compute_bounds(undoAgain, window.window, &button) != 0
                    && gtk_widget_compute_bounds(field, window.window, &input) != 0
                    && button.origin.y + button.size.height <= input.origin.y
            }, "the toast above the message field")
            try await Xdo.click(field)
            // The pointer rests on the toast, which holds it on screen past its timeout.
            try await Xdo.hover(undoAgain)
            try await GtkTestHarness.send("next", in: window)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.isEmpty }, "the toast gone")
            #expect(model.conversation.messages.map(\.text) == ["first", "Reply number 1 to: first", "next", "Reply number 3 to: next"])
        }
    }
}
