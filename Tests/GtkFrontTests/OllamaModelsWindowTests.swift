import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Ollama's models in Preferences › Models under Xvfb against the scripted Ollama, as a
    /// person uses them: a model pulled by name with its progress bar (and one cancelled, one
    /// refused), a model deleted after a confirmation, a delete Ollama refuses, and the page
    /// with no Ollama server.
    @MainActor
    @Suite("Ollama models in Preferences (GTK under Xvfb)", .serialized)
    struct OllamaModelsWindowTests {
        let ollama = OllamaTestServer.shared
        let preferencesTests = PreferencesWindowTests()

        /// The app with one Ollama server at `store`, Preferences open on its Models page, and
        /// the server's group once its models are listed.
        func open(store: String?) async throws -> (AgentApplication, ChatWindow, PreferencesWindow) {
            let settings = try TestTools.settings()
            if let store {
                settings.saveProfile(ServerProfile(name: "Ollama here", url: store, protocol: .ollama, model: "llama3.2"))
            }
            let (app, window) = try await preferencesTests.launch(settings: settings)
            let preferences = try await preferencesTests.openPreferences(window)
            try await preferencesTests.showPage("Models", of: preferences)
            return (app, window, preferences)
        }

        func listed(_ group: OllamaServerGroup) -> [String] { group.models.map(\.info.name) }

        /// Answers the dialog headed `heading` with `button`, as a person does; returns its body.
        func answer(_ heading: String, _ button: String) async throws -> String {
            try await GtkTestHarness.answerDialog(headed: heading, with: button)
        }

        @Test("Pull a model by name: the bar moves with Ollama's status, bytes and speed, completes, the model is listed; Cancel; a refusal in Ollama's words")
        func pullThroughPreferences() async throws {
            let store = ollama.store(paceMilliseconds: 60, holding: true)
            let (app, _, preferences) = try await open(store: store)
            defer { GtkTestHarness.close(app) }
            let group = try #require(preferences.ollama.groups.first)
            try await GtkTestHarness.pump(until: { listed(group) == ["llama3.2:latest", "qwen3:0.6b"] }, "the server's models")
            let llama = try #require(group.models.first)
            #expect(String(cString: adw_action_row_get_subtitle(llama.row.cast())) == "2.0\u{A0}GB · llama · 3.2B · Q4_K_M")
            #expect(!GtkTestHarness.isVisible(group.statusRow) && !GtkTestHarness.isVisible(group.pull.progress.widget))
            #expect(!GtkTestHarness.isSensitive(group.pull.button), "nothing to pull yet")

            try await preferencesTests.fill(group.pull.entry, with: "smollm2:135m")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isSensitive(group.pull.button) }, "Pull to become available")
            try await Xdo.click(group.pull.button)
            #expect(try await ollama.event("held", of: "smollm2:135m", in: store), "the pull is half way through its first layer")
            let row = group.pull.progress
            try await GtkTestHarness.pump(until: { row.fraction == 0.5 }, "the bar half way")
            #expect(GtkTestHarness.isMapped(row.bar))
            #expect(String(cString: gtk_progress_bar_get_text(row.bar.opaque)) == "50%")
            #expect(row.title == "Pulling smollm2:135m")
            #expect(row.subtitle.range(of: #"^pulling [0-9a-f]{12}\n136\.\d\sMB of 272\.\d\sMB · \d+(\.\d)?\s(MB|GB)/s$"#,
                                       options: .regularExpression) != nil, "Ollama's status, the bytes and the speed: \(row.subtitle)")
            #expect(!GtkTestHarness.isSensitive(group.pull.button), "one pull at a time")
            try await ollama.release("smollm2:135m", in: store)
            try await GtkTestHarness.pump(until: { listed(group).contains("smollm2:135m") }, "the pulled model listed")
            #expect(!GtkTestHarness.isVisible(row.widget), "the bar goes once the pull is done")
            #expect(PreferenceRows.text(of: group.pull.entry).isEmpty)
            let pulled = try #require(group.models.first { $0.info.name == "smollm2:135m" })
            #expect(String(cString: adw_action_row_get_subtitle(pulled.row.cast())).hasSuffix("smollm · 135M · Q4_K_M"))

            // Cancel: Enter starts the pull, Cancel stops it and closes its connection.
            try await preferencesTests.fill(group.pull.entry, with: "gemma3:270m")
            try await Xdo.key("Return")
            #expect(try await ollama.event("held", of: "gemma3:270m", in: store))
            try await GtkTestHarness.pump(until: { row.fraction == 0.5 }, "the second pull half way")
            #expect(String(cString: gtk_button_get_label(row.button.cast())) == "_Cancel")
            try await Xdo.click(row.button)
            #expect(try await ollama.event("client-closed", of: "gemma3:270m", in: store, within: .seconds(5)))
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isVisible(row.widget) }, "the cancelled pull's row to go")
            #expect(!listed(group).contains("gemma3:270m"))
            #expect(GtkTestHarness.isSensitive(group.pull.button), "the name stays, to pull again")

            // A model Ollama does not know: its words stay in the row until dismissed.
            try await preferencesTests.fill(group.pull.entry, with: "nosuch-model")
            try await Xdo.click(group.pull.button)
            try await GtkTestHarness.pump(until: { row.failed }, "the pull to fail")
            #expect(row.title == "Could not pull nosuch-model")
            #expect(row.subtitle == "pull model manifest: file does not exist")
            #expect(!GtkTestHarness.isVisible(row.bar))
            try await Xdo.click(row.button)
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isVisible(row.widget) }, "Dismiss to hide the row")
        }

        @Test("Delete asks first; Cancel keeps the model, Delete removes it; a model already gone is Ollama's 404, in its words")
        func deleteWithConfirmation() async throws {
            let store = ollama.store()
            let (app, _, preferences) = try await open(store: store)
            defer { GtkTestHarness.close(app) }
            let group = try #require(preferences.ollama.groups.first)
            try await GtkTestHarness.pump(until: { listed(group).count == 2 }, "the server's models")

            let qwen = try #require(group.models.last)
            try await Xdo.click(qwen.delete)
            let body = try await answer("Delete qwen3:0.6b?", "Cancel")
            #expect(body == "Ollama here deletes it from its disk, freeing 522.7\u{A0}MB. To use it again, pull it again.")
            #expect(listed(group).count == 2)
            try await Xdo.focus(preferences.window)
            try await Xdo.click(qwen.delete)
            _ = try await answer("Delete qwen3:0.6b?", "Delete")
            try await GtkTestHarness.pump(until: { listed(group) == ["llama3.2:latest"] }, "the model gone from the list")

            // Another client deletes llama3.2 behind the window's back; deleting it here is refused.
            try await OllamaModelManager(endpoint: ChatEndpoint(serverURL: store, protocol: .ollama, model: "")).delete("llama3.2:latest")
            try await Xdo.focus(preferences.window)
            let llama = try #require(group.models.first)
            try await Xdo.click(llama.delete)
            _ = try await answer("Delete llama3.2:latest?", "Delete")
            let refusal = try await answer("Could Not Delete llama3.2:latest", "OK")
            #expect(refusal == "model 'llama3.2:latest' not found")
            try await GtkTestHarness.pump(until: { listed(group).isEmpty && GtkTestHarness.isVisible(group.statusRow) }, "the list emptied")
            #expect(String(cString: adw_preferences_row_get_title(group.statusRow.cast())) == "No models yet")
        }

        @Test("Closing Preferences stops a pull in flight: its connection closes")
        func closingStopsAPull() async throws {
            let store = ollama.store(holding: true)
            let (app, window, preferences) = try await open(store: store)
            defer { GtkTestHarness.close(app) }
            let group = try #require(preferences.ollama.groups.first)
            try await preferencesTests.fill(group.pull.entry, with: "gemma3:270m")
            try await Xdo.key("Return")
            #expect(try await ollama.event("held", of: "gemma3:270m", in: store))
            try await preferencesTests.close(preferences, of: window)
            #expect(try await ollama.event("client-closed", of: "gemma3:270m", in: store, within: .seconds(5)))
        }

        @Test("An Ollama server that cannot be reached says so in its group")
        func unreachableServer() async throws {
            let (app, _, preferences) = try await open(store: "http://127.0.0.1:9")
            defer { GtkTestHarness.close(app) }
            let group = try #require(preferences.ollama.groups.first)
            try await GtkTestHarness.pump(until: {
                String(cString: adw_preferences_row_get_title(group.statusRow.cast())) == "Could not list the models"
            }, "the listing to fail")
            #expect(GtkTestHarness.isMapped(group.statusRow) && gtk_widget_has_css_class(group.statusRow, "error") != 0)
            #expect(String(cString: adw_action_row_get_subtitle(group.statusRow.cast()))
                .hasPrefix("Could not get a reply from http://127.0.0.1:9/api/tags:"))
            #expect(group.models.isEmpty)
        }

        @Test("With no Ollama server the page says how to add one, and its button leads to Servers")
        func noOllamaServer() async throws {
            let (app, _, preferences) = try await open(store: nil)
            defer { GtkTestHarness.close(app) }
            #expect(preferences.ollama.groups.isEmpty)
            #expect(GtkTestHarness.isMapped(preferences.ollama.emptyGroup))
            #expect(GtkTestHarness.mappedLabel("No Ollama server is set up", in: preferences.window) != nil)
            try await Xdo.click(preferences.ollama.showServersButton)
            try await GtkTestHarness.pump(until: {
                adw_preferences_window_get_visible_page_name(preferences.window.cast()).map { String(cString: $0) } == "servers"
            }, "the Servers page")
        }

        @Test("An Ollama server added in Servers appears on the Models page when it is shown")
        func followsTheServers() async throws {
            let store = ollama.store()
            let (app, _, preferences) = try await open(store: nil)
            defer { GtkTestHarness.close(app) }
            let profile = ServerProfile(name: "Added", url: store, protocol: .ollama, model: "llama3.2")
            preferences.settings.saveProfile(profile)
            try await preferencesTests.showPage("Servers", of: preferences)
            try await preferencesTests.showPage("Models", of: preferences)
            let group = try #require(preferences.ollama.groups.first)
            #expect(!GtkTestHarness.isVisible(preferences.ollama.emptyGroup))
            try await GtkTestHarness.pump(until: { listed(group).count == 2 }, "its models")
        }
    }
}
