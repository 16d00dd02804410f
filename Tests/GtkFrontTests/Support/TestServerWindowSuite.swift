import AgentCore
import CGtk
@testable import GtkFront
import TestSupport
import Testing

/// A suite of window tests whose chats talk to the shared test server: the window launched
/// on one of its scenarios, a message sent as a person sends it, and the reply's row.
@MainActor
protocol TestServerWindowSuite {}

extension TestServerWindowSuite {
    var server: TestServer { TestServer.shared }

    /// The app with its window shown, its chat answered by the test server's `scenario`.
    func launch(_ scenario: String, toolbox: Toolbox = Toolbox(), consent: ConsentBroker = ConsentBroker()) async throws
        -> (AgentApplication, ChatWindow) {
        let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "configured-model"),
                                            toolbox: toolbox, consent: consent)
        return try await GtkTestHarness.shown(app)
    }

    /// Types `text` into the focused message field and presses Enter.
    func send(_ text: String) async throws {
        try await Xdo.type(text)
        try await Xdo.key("Return")
    }

    /// The row of the chat's reply once its text has `reached` a point (a gate reply held
    /// there) and the window has settled.
    func replyRow(in window: ChatWindow, once reached: (String) -> Bool, _ description: String) async throws -> MessageRow {
        let model = window.viewModel
        try await GtkTestHarness.pump(until: { model.conversation.count == 2 && reached(model.conversation[1].text) }, description)
        try await GtkTestHarness.settle(window)
        return try #require(window.transcript.boundRow(for: model.conversation[1].id))
    }

    /// Lets the held reply of `scenario` go on to its end; its row once the window has settled.
    func finishedReplyRow(in window: ChatWindow, releasing scenario: String) async throws -> MessageRow {
        let model = window.viewModel
        try await server.release(scenario)
        try await GtkTestHarness.pump(until: { !model.isSending }, "the reply to finish")
        try await GtkTestHarness.settle(window)
        return try #require(window.transcript.boundRow(for: model.conversation[1].id))
    }

    /// Sends `text` and waits until its reply, taller than the view, is shown to its end;
    /// the transcript's vertical adjustment.
    func sendTallerThanTheView(_ text: String, in window: ChatWindow) async throws -> UnsafeMutablePointer<GtkAdjustment> {
        try await GtkTestHarness.send(text, in: window, settling: true)
        let adjustment = window.transcript.adjustment
        let bottom = { gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) }
        try await GtkTestHarness.pump(until: { bottom() > 0 && gtk_adjustment_get_value(adjustment) == bottom() },
                                      "the reply taller than the view, shown to its end")
        return adjustment
    }
}
