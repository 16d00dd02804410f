import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The Preferences window under Xvfb: a server profile set up as a user would (model
    /// picked from the server's list, API key into the real keyring), the chat switching
    /// to it when the window closes; generation and tool settings reaching the requests.
    @MainActor
    @Suite("Preferences (GTK under Xvfb)", .serialized)
    struct PreferencesWindowTests {
        let server = TestServer.shared

        func launch(settings: SettingsStore, secrets: SecretStore = SecretStore()) throws -> (AgentApplication, ChatWindow) {
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox.standard(
                    settings: settings, locationSource: nil, askConsent: { .deny }))
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "unused"), preferences: preferences)
            return (app, try #require(app.window))
        }

        func openPreferences(_ window: ChatWindow) async throws -> PreferencesWindow {
            gtk_widget_activate_action_variant(window.window, "win.preferences", nil)
            try await GtkTestHarness.pump(until: { window.preferencesWindow != nil }, "Preferences to open")
            let preferences = try #require(window.preferencesWindow)
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(preferences.window) != 0 }, "Preferences on screen")
            return preferences
        }

        func close(_ preferences: PreferencesWindow, of window: ChatWindow) async throws {
            preferences.close()
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Preferences to close")
        }

        func send(_ text: String, in window: ChatWindow) async throws {
            window.composer.input.enter(text)
            window.composer.input.submit()
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply to “\(text)”")
        }

        @Test("A server added in Preferences: model from its list, key in the keyring; chats use it; the key is on no disk")
        func serverProfileWithAKeyInTheKeyring() async throws {
            _ = try TestKeyring.directory()
            let settings = SettingsStore(file: TestTools.temporarySettingsFile())
            let key = TestKeyring.uniqueKey()
            // The server checks the key's end; the key itself is in no URL (URLs are saved).
            let url = server.url("auth-\(key.split(separator: "-").last ?? "")")
            let (app, window) = try launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let preferences = try await openPreferences(window)
            let page = preferences.servers
            #expect(!GtkTestHarness.isSensitive(page.removeButton), "“This computer” cannot be removed")

            agent_emit_signal(page.addButton.raw, "clicked")
            let profile = try #require(page.editedProfile)
            #expect(settings.activeProfileID == profile.id)
            gtk_editable_set_text(page.nameEntry.opaque, "Test server")
            gtk_editable_set_text(page.urlEntry.opaque, url)
            gtk_editable_set_text(page.modelEntry.opaque, "")

            // The key goes to the keyring first: listing the models needs it.
            gtk_editable_set_text(page.keyEntry.opaque, key)
            agent_emit_signal(page.keyEntry.raw, "activate")
            try await GtkTestHarness.pump(until: { String(cString: gtk_label_get_text(page.keyStatus.opaque)) == "Key saved in your keyring." },
                                          "the key to be saved")
            #expect(FormGrid.text(of: page.keyEntry).isEmpty, "the field does not keep the key")

            agent_emit_signal(page.fetchButton.raw, "clicked")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isVisible(page.modelList) }, "the server's models")
            let listed = try #require(gtk_drop_down_get_model(page.modelList.opaque))
            #expect(g_list_model_get_n_items(listed) == 2)
            gtk_drop_down_set_selected(page.modelList.opaque, 1)
            #expect(FormGrid.text(of: page.modelEntry) == "test-model-large")

            let saved = try #require(settings.serverProfiles.first)
            #expect(saved.name == "Test server" && saved.url == url && saved.model == "test-model-large")
            try await close(preferences, of: window)

            #expect(window.viewModel.connection.modelName == "test-model-large")
            #expect(window.viewModel.connection.profileID == profile.id)
            #expect(GtkTestHarness.labelTexts(in: window.header.widget).contains { $0.contains("test-model-large") })
            try await send("Is the key sent?", in: window)
            #expect(window.viewModel.conversation.messages.last?.text == "Authorized reply", "the request carried the keyring's key")

            let leaks = TestKeyring.files(containing: key, under: TestKeyring.userDirectories() + [settings.file.deletingLastPathComponent()])
            #expect(leaks.isEmpty, "the key is in no settings, data or cache file: \(leaks)")
            #expect(await SecretStore().key(for: profile.id)?.value == key)
            await SecretStore().clear(profile.id)
        }

        @Test("Generation, tools and the system prompt: saved at once, in the requests once Preferences closes")
        func generationAndToolSettings() async throws {
            let settings = SettingsStore(file: TestTools.temporarySettingsFile())
            let marker = UUID().uuidString
            let profile = ServerProfile(name: "Echo", url: server.url("echo/\(marker)"), model: "echo-model")
            settings.saveProfile(profile)
            settings.activeProfileID = profile.id
            let (app, window) = try launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let preferences = try await openPreferences(window)

            preferences.show(page: "generation")
            let generation = preferences.generation
            #expect(!GtkTestHarness.isSensitive(generation.temperature), "the server's default until switched on")
            gtk_switch_set_active(generation.customTemperature.opaque, 1)
            gtk_spin_button_set_value(generation.temperature.opaque, 0.3)
            gtk_spin_button_set_value(generation.maxTokens.opaque, 100)
            gtk_text_buffer_set_text(gtk_text_view_get_buffer(generation.systemPrompt.cast()), "Answer in one sentence.", -1)
            #expect(settings.temperature == 0.3 && settings.maxTokens == 100 && settings.systemPrompt == "Answer in one sentence.")

            preferences.show(page: "tools")
            let tools = preferences.tools
            gtk_switch_set_active(tools.locationSwitch.opaque, 0)
            #expect(settings.disabledTools == ["get_location"])
            gtk_editable_set_text(tools.manualLocation.opaque, "north of here")
            #expect(GtkTestHarness.isVisible(tools.locationProblem), "a location it cannot read is pointed out")
            #expect(settings.manualLocation == nil)
            gtk_editable_set_text(tools.manualLocation.opaque, "48.8566, 2.3522")
            #expect(!GtkTestHarness.isVisible(tools.locationProblem))
            #expect(settings.manualLocation == Coordinates(latitude: 48.8566, longitude: 2.3522))

            preferences.show(page: "local-model")
            let gemma = try #require(preferences.localModel.choices.last)
            gtk_check_button_set_active(gemma.cast(), 1)
            #expect(settings.localModel == .gemma3)
            try await close(preferences, of: window)

            try await send("Hello there", in: window)
            let request = try #require(try await server.requests(containing: marker).last)
            let body = try #require(request["body"] as? [String: Any])
            #expect(body["temperature"] as? Double == 0.3)
            #expect(body["max_tokens"] as? Int == 100)
            let messages = try #require(body["messages"] as? [[String: Any]])
            #expect(messages.first?["role"] as? String == "system" && messages.first?["content"] as? String == "Answer in one sentence.")
            let toolNames = (body["tools"] as? [[String: Any]] ?? []).compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
            #expect(toolNames == ["get_datetime"], "get_location was switched off")
        }
    }
}
