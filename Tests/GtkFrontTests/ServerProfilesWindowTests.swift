import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A server profile's fields as Preferences › Servers sets them — protocol, API path, CA
    /// certificate, Offer Tools — each reaching that profile's requests and no other's, read
    /// back from what the test server received; and Remove, only after its confirmation.
    @MainActor
    @Suite("Server profiles in Preferences (GTK under Xvfb)", .serialized)
    struct ServerProfilesWindowTests {
        let server = TestServer.shared
        let preferencesSteps = PreferencesWindowTests()

        /// Turns the mouse wheel over the page until `widget` is wholly in the window, as a
        /// person scrolls to a row below the fold.
        func reveal(_ widget: UnsafeMutablePointer<GtkWidget>, in preferences: PreferencesWindow) async throws {
            let header: Float = 60
            for _ in 0..<40 {
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(widget, preferences.window, &bounds) != 0 else { break }
                let height = Float(gtk_widget_get_height(preferences.window))
                if bounds.origin.y >= header && bounds.origin.y + bounds.size.height <= height { break }
                try await Xdo.scroll(preferences.servers.widget, up: bounds.origin.y < header, clicks: 2)
                try await GtkTestHarness.pump(for: .milliseconds(80))
            }
            try await GtkTestHarness.laidOut(widget)
        }

        /// Picks `item` from the list a combo row opens.
        func choose(_ item: String, in combo: UnsafeMutablePointer<GtkWidget>, of preferences: PreferencesWindow) async throws {
            try await reveal(combo, in: preferences)
            try await Xdo.click(combo)
            let popover = try #require(GtkTestHarness.descendant(ofType: "GtkPopover", in: combo))
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(popover) }, "the list of “\(item)”")
            try await Xdo.click(try #require(GtkTestHarness.mappedLabel(item, in: popover), "“\(item)” in the list"))
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isMapped(popover) }, "the list to close")
        }

        func fill(_ row: UnsafeMutablePointer<GtkWidget>, with text: String, in preferences: PreferencesWindow) async throws {
            try await reveal(row, in: preferences)
            try await preferencesSteps.fill(row, with: text)
        }

        /// Settings whose chats go to a server profile "Plain" (an echo under a marker of its own).
        func settingsGoingToPlain() throws -> (SettingsStore, ServerProfile, marker: String) {
            let settings = try TestTools.settings()
            let marker = uniqueMarker("plain")
            let plain = ServerProfile(name: "Plain", url: server.url("echo/\(marker)"), model: "plain-model")
            settings.saveProfile(plain)
            settings.activeProfileID = plain.id
            return (settings, plain, marker)
        }

        /// The body of the one request of `marker` whose path ends with `suffix`.
        func request(_ marker: String, endingWith suffix: String) async throws -> [String: Any] {
            let found = try await server.requests(containing: marker).filter { ($0["path"] as? String)?.hasSuffix(suffix) == true }
            #expect(found.count == 1, "one request to …\(suffix): \(found.count)")
            return try #require(found.last?["body"] as? [String: Any])
        }

        @Test("Protocol, API path, CA certificate and Offer Tools set in Preferences reach that server's requests alone; Remove asks first")
        func profileFieldsReachTheirRequests() async throws {
            let (settings, plain, plainMarker) = try settingsGoingToPlain()
            let (app, window) = try await preferencesSteps.launch(settings: settings)
            defer { GtkTestHarness.close(app) }

            // A second server, filled in field by field: Ollama over HTTPS signed by the test
            // server's own CA, on a path of its own, without tools.
            let marker = uniqueMarker("secure")
            var preferences = try await preferencesSteps.openPreferences(window)
            let row = try await preferencesSteps.addServer(in: preferences)
            try await fill(row.urlRow, with: server.tlsURL("ollama-echo/\(marker)"), in: preferences)
            try await fill(row.nameRow, with: "Secure Ollama", in: preferences)
            try await choose("Ollama", in: row.protocolRow, of: preferences)
            #expect(String(cString: adw_preferences_row_get_title(row.pathRow.cast())) == "API Path (empty: /api/chat)")
            try await fill(row.pathRow, with: "/custom/chat", in: preferences)
            try await fill(row.modelRow, with: "llama3.2", in: preferences)
            try await fill(row.caRow, with: server.caFile, in: preferences)
            try await reveal(row.toolsSwitch, in: preferences)
            #expect(gtk_switch_get_active(row.toolsSwitch.opaque) != 0, "a new server is offered tools")
            try await Xdo.click(row.toolsSwitch)
            try await GtkTestHarness.pump(until: { gtk_switch_get_active(row.toolsSwitch.opaque) == 0 }, "Offer Tools off")
            try await preferencesSteps.close(preferences, of: window)

            let secure = try #require(settings.serverProfiles.first { $0.name == "Secure Ollama" })
            #expect(secure.protocolKind == .ollama && secure.apiPath == "/custom/chat" && secure.caFile == server.caFile && !secure.toolsEnabled)
            #expect(settings.activeProfileID == secure.id)
            try await GtkTestHarness.send("Hello over TLS", in: window, timeout: .seconds(60))
            #expect(!window.viewModel.status.showError, "\(window.viewModel.status.errorMessage)")
            #expect(window.viewModel.conversation.messages.last?.text == "Echo: Hello over TLS", "Ollama's NDJSON reply read as Ollama's")
            let secureBody = try await request(marker, endingWith: "/\(marker)/custom/chat")
            #expect(secureBody["model"] as? String == "llama3.2")
            #expect(secureBody["tools"] == nil, "Offer Tools off: no tools in the request")
            #expect(secureBody["options"] != nil || secureBody["stream"] as? Bool == true, "Ollama's request: \(secureBody.keys.sorted())")

            // The other server keeps its own protocol, path and tools.
            preferences = try await preferencesSteps.openPreferences(window)
            try await choose("Plain", in: preferences.servers.destination, of: preferences)
            try await preferencesSteps.close(preferences, of: window)
            #expect(settings.activeProfileID == plain.id)
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("Hello plainly", in: window, timeout: .seconds(60))
            #expect(window.viewModel.conversation.messages.last?.text.hasPrefix("Echo: Hello plainly") == true)
            let plainBody = try await request(plainMarker, endingWith: "/\(plainMarker)/v1/chat/completions")
            #expect(plainBody["model"] as? String == "plain-model")
            let tools = (plainBody["tools"] as? [[String: Any]])?.compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
            #expect(tools?.contains("get_datetime") == true, "this server is offered tools: \(tools ?? [])")
            let secureChats = try await server.requests(containing: marker).filter { ($0["body"] as? [String: Any])?["messages"] != nil }
            #expect(secureChats.count == 1, "no chat went to the other server: \(secureChats.compactMap { $0["path"] as? String })")

            // Remove: Cancel keeps the server; Remove removes it.
            preferences = try await preferencesSteps.openPreferences(window)
            let secureRow = try #require(preferences.servers.row(for: secure.id))
            try await reveal(secureRow.widget, in: preferences)
            try await Xdo.click(secureRow.widget, y: 20)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(secureRow.removeButton) }, "the server's fields")
            try await reveal(secureRow.removeButton, in: preferences)
            try await Xdo.click(secureRow.removeButton)
            let body = try await GtkTestHarness.answerDialog(headed: "Remove “Secure Ollama”?", with: "Cancel")
            #expect(body == "Its settings and its API key in your keyring are deleted.")
            #expect(preferences.servers.row(for: secure.id) != nil, "Cancel keeps it")
            try await Xdo.focus(preferences.window)
            try await reveal(secureRow.removeButton, in: preferences)
            try await Xdo.click(secureRow.removeButton)
            _ = try await GtkTestHarness.answerDialog(headed: "Remove “Secure Ollama”?", with: "Remove")
            try await GtkTestHarness.pump(until: { preferences.servers.row(for: secure.id) == nil }, "the server's row to go")
            try await preferencesSteps.close(preferences, of: window)
            #expect(settings.serverProfiles.map(\.name) == ["Plain"])
            #expect(settings.activeProfileID == plain.id)
        }

        @Test("A server named with --server is offered first in Chats Go To; chats stay with it, taking the tools switched off, until another is chosen")
        func serverOfThisRunStaysUntilAnotherIsChosen() async throws {
            let (settings, plain, plainMarker) = try settingsGoingToPlain()
            let toolbox = { Toolbox.standard(settings: settings, locationSource: nil, askConsent: { .deny }) }
            let runMarker = uniqueMarker("run")
            let runServer = ChatEndpoint(serverURL: server.url("echo/\(runMarker)"), model: "run-model")
            let ofThisRun = ServerOfThisRun(name: "127.0.0.1") { ChatConnection(endpoint: runServer, toolbox: toolbox()) }
            let preferencesOfApp = AppPreferences(settings: settings, secrets: SecretStore(), serverOfThisRun: ofThisRun) {
                ChatConnection.fromSettings(settings, secrets: SecretStore(), toolbox: toolbox())
            }
            let app = try GtkTestHarness.launch(runServer, preferences: preferencesOfApp, connection: ofThisRun.makeConnection())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let runEntry = "127.0.0.1 (--server)"
            let description = { (preferences: PreferencesWindow) in
                adw_preferences_group_get_description(preferences.servers.destinationGroup.cast()).map { String(cString: $0) } ?? ""
            }
            func chats() async throws -> [[String: Any]] {
                try await server.requests(containing: runMarker).compactMap { $0["body"] as? [String: Any] }.filter { $0["messages"] != nil }
            }
            func offeredTools() async throws -> [String] {
                let body = try #require(try await chats().last)
                #expect(body["temperature"] == nil, "the command line's options, not the settings'")
                return (body["tools"] as? [[String: Any]] ?? []).compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
            }

            // Offered and chosen; a round trip through another destination and back, a setting
            // of the settings' own connection and a tool switched off leave chats where they were.
            var preferences = try await preferencesSteps.openPreferences(window)
            let destination = preferences.servers.destination
            try await GtkTestHarness.pump(until: { GtkTestHarness.mappedLabel(runEntry, in: destination) != nil }, "this run's server shown as where chats go")
            #expect(description(preferences).contains("--server"))
            try await choose("Plain", in: destination, of: preferences)
            #expect(description(preferences).isEmpty)
            try await choose(runEntry, in: destination, of: preferences)
            try await preferencesSteps.showPage("Generation", of: preferences)
            try await Xdo.click(preferences.generation.customTemperature)
            try await GtkTestHarness.pump(until: { gtk_widget_is_sensitive(preferences.generation.temperature) != 0 }, "the temperature on")
            try await preferencesSteps.showPage("Tools", of: preferences)
            try await Xdo.click(preferences.tools.locationSwitch)
            try await preferencesSteps.close(preferences, of: window)
            #expect(window.viewModel.defaultConnection.isNamedServer, "chats stay with this run's server")
            #expect(settings.activeProfileID == plain.id && settings.temperature == 0.7 && settings.disabledTools == ["get_location"])
            try await GtkTestHarness.send("Still there?", in: window, timeout: .seconds(60))
            #expect(try await offeredTools() == ["get_datetime"], "the location tool switched off reaches this run's server too")

            // Choosing the settings' own destination, already theirs, moves chats to it.
            preferences = try await preferencesSteps.openPreferences(window)
            try await choose("Plain", in: preferences.servers.destination, of: preferences)
            try await preferencesSteps.close(preferences, of: window)
            #expect(!window.viewModel.defaultConnection.isNamedServer)
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("Over to you", in: window, timeout: .seconds(60))
            let body = try await request(plainMarker, endingWith: "/\(plainMarker)/v1/chat/completions")
            #expect(body["model"] as? String == "plain-model" && body["temperature"] as? Double == 0.7, "the settings apply there")

            // Still offered, not chosen; chosen again, chats go back to it.
            preferences = try await preferencesSteps.openPreferences(window)
            try await GtkTestHarness.pump(until: { GtkTestHarness.mappedLabel("Plain", in: preferences.servers.destination) != nil }, "Plain chosen")
            #expect(description(preferences).isEmpty)
            try await choose(runEntry, in: preferences.servers.destination, of: preferences)
            try await preferencesSteps.close(preferences, of: window)
            #expect(window.viewModel.defaultConnection.isNamedServer)
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("Back again", in: window, timeout: .seconds(60))
            #expect(try await chats().count == 2)
            #expect(try await offeredTools() == ["get_datetime"])
            #expect(settings.activeProfileID == plain.id, "the settings keep their own destination")
        }
    }
}
