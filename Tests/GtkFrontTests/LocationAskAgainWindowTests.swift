import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Preferences › Tools' Ask Again for `get_location`, used as a person does: Always Allow
    /// answered in the window, the next call shares the location unasked, Ask Again clicked in
    /// Preferences, and the call after that asks again.
    @MainActor
    @Suite("Location: Ask Again (GTK under Xvfb)", .serialized)
    struct LocationAskAgainWindowTests {
        let server = TestServer.shared
        let preferencesSteps = PreferencesWindowTests()

        /// Sends `text` from the chat window (a question that closed left the keyboard nowhere);
        /// the server's reply calls `get_location`, then quotes its result.
        func send(_ text: String, in window: ChatWindow) async throws {
            try await Xdo.focus(window.window)
            try await Xdo.type(text)
            try await Xdo.key("Return")
        }

        @Test("Always Allow shares the location without asking; Ask Again in Preferences › Tools takes it back: the next call asks")
        func askAgainTakesBackAlwaysAllow() async throws {
            let settings = try TestTools.settings()
            settings.manualLocation = Coordinates(latitude: 48.8566, longitude: 2.3522)
            let located = "latitude: 48.8566, longitude: 2.3522"
            let consent = ConsentBroker()
            let marker = uniqueMarker()
            let endpoint = ChatEndpoint(serverURL: server.url("tools-single/\(marker)"), model: "m")
            let preferences = AppPreferences(settings: settings, secrets: SecretStore()) {
                ChatConnection(endpoint: endpoint, toolbox: Toolbox.standard(settings: settings, locationSource: nil,
                                                                             askConsent: { await consent.ask() }))
            }
            let app = try GtkTestHarness.launch(endpoint, consent: consent, preferences: preferences)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let model = window.viewModel

            try await send("Where am I?", in: window)
            try await GtkTestHarness.pump(until: { window.consentDialog != nil }, "the first call's question")
            try await GtkTestHarness.answer(try #require(window.consentDialog), "Always Allow")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2 }, "the first reply")
            #expect(model.conversation[1].toolCalls.first?.result == located)
            #expect(settings.locationAlwaysAllowed, "Always Allow is remembered")

            // Remembered: the second call is not asked about (a question would hold the reply).
            try await send("And now?", in: window)
            try await GtkTestHarness.pump(until: { window.consentDialog != nil || (!model.isSending && model.conversation.count == 4) },
                                          "the second reply")
            #expect(window.consentDialog == nil, "Always Allow: no question")
            #expect(model.conversation[3].toolCalls.first?.result == located)

            let open = try await preferencesSteps.openPreferences(window)
            try await preferencesSteps.showPage("Tools", of: open)
            let askAgain = open.tools.forgetConsent
            #expect(GtkTestHarness.isSensitive(askAgain), "Ask Again is offered while Always Allow holds")
            let consentRow = open.tools.consentRow
            #expect(String(cString: adw_action_row_get_subtitle(consentRow.cast())) == "You chose “Always Allow”. Ask Again takes it back.")
            try await Xdo.click(askAgain)
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isSensitive(askAgain) }, "Ask Again to be taken")
            #expect(String(cString: adw_action_row_get_subtitle(consentRow.cast())) == "No: Agent asks each time the model wants the location.",
                    "the row no longer says the user chose Always Allow")
            try await preferencesSteps.close(open, of: window)
            #expect(!settings.locationAlwaysAllowed, "taken back once Preferences closed")

            try await send("Where now?", in: window)
            try await GtkTestHarness.pump(until: { window.consentDialog != nil || (!model.isSending && model.conversation.count == 6) },
                                          "the third call")
            let question = try #require(window.consentDialog, "after Ask Again the location is asked for again")
            #expect(question.heading == "Share Your Location?")
            try await GtkTestHarness.answer(question, "Allow Once")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 6 }, "the third reply")
            #expect(model.conversation[5].toolCalls.first?.result == located)
            #expect(!settings.locationAlwaysAllowed, "Allow Once is not remembered")
            let requests = try await server.requests(containing: marker)
            #expect(requests.count == 6, "each of the three messages: the call, then its result; \(requests.count) requests")
        }
    }
}
