import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Preferences under Xvfb, filled in as a person does — clicks and typing through the X
    /// server: a server set up with its model picked from the server's list and its key into
    /// the real keyring; generation, tools and the local model; nothing written until the
    /// window closes; a reply in flight left alone when it closes.
    @MainActor
    @Suite("Preferences (GTK under Xvfb)", .serialized)
    struct PreferencesWindowTests {
        let server = TestServer.shared

        /// `store`: chats kept there (and Preferences › Presets shown); none by default.
        func launch(settings: SettingsStore, secrets: SecretStore = SecretStore(), store: ChatStore? = nil) async throws -> (AgentApplication, ChatWindow) {
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox.standard(
                    settings: settings, locationSource: nil, askConsent: { .deny }))
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "unused"), store: store, preferences: preferences)
            return try await GtkTestHarness.shown(app)
        }

        func openPreferences(_ window: ChatWindow) async throws -> PreferencesWindow {
            try await Xdo.key("ctrl+comma")
            try await GtkTestHarness.pump(until: { window.preferencesWindow != nil }, "Preferences to open")
            let preferences = try #require(window.preferencesWindow)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(preferences.window) }, "Preferences on screen")
            try await Xdo.focus(preferences.window)
            return preferences
        }

        @Test("As narrow as a phone (360 px), the page bar at the bottom names each of the five pages in full")
        func pageNamesFitAPhone() async throws {
            let chats = FileManager.default.temporaryDirectory.appending(path: "agent-pages-\(UUID())/chats.sqlite")
            let (app, window) = try await launch(settings: try TestTools.settings(), store: try ChatStore(file: chats))
            defer { GtkTestHarness.close(app) }
            let preferences = try await openPreferences(window)
            try await Xdo.resize(preferences.window, width: 360, height: 640)
            let bar = try #require(WidgetTree(preferences.window).first { String(cString: gtk_widget_get_css_name($0)) == "viewswitcherbar" })
            var names: [UnsafeMutablePointer<GtkWidget>] = []
            try await GtkTestHarness.pump(until: {
                names = WidgetTree(bar).filter { GtkText.isLabel($0) && GtkTestHarness.isMapped($0) }
                return names.count == 5
            }, "the page bar")
            #expect(names.map(GtkTestHarness.label) == ["Servers", "Models", "Generation", "Presets", "Tools"])
            for name in names {
                #expect(pango_layout_is_ellipsized(gtk_label_get_layout(name.opaque)) == 0, "“\(GtkTestHarness.label(name))” in full")
            }
        }

        @Test("A screen reader hears a labelled button's words once, without the mnemonic's underscore (read through AT-SPI)")
        func mnemonicButtonsAreNamedByTheirWords() async throws {
            let (app, window) = try await launch(settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            _ = try await openPreferences(window)
            let reader = Process()
            reader.executableURL = URL(filePath: "/usr/bin/python3")
            reader.arguments = [TiedProcess.serversDirectory.appending(path: "atspi_button_names.py").path, String(getpid())]
            let output = Pipe()
            reader.standardOutput = output
            try reader.run()
            async let printed = ProductRunner.readToEnd(output.fileHandleForReading)
            // The reader asks this process through AT-SPI: its main loop must run meanwhile.
            try await GtkTestHarness.pump(until: { !reader.isRunning }, timeout: .seconds(60), "the buttons read through AT-SPI")
            let names = try JSONDecoder().decode([String].self, from: await printed)
            #expect(names.contains("Search Again"), "Preferences › Servers' button, named once: \(names)")
            #expect(!names.contains { $0.contains("_") }, "no underscore: \(names)")
        }

        /// Clicks Add in Preferences › Servers; the new server's row, its fields on screen.
        func addServer(in preferences: PreferencesWindow) async throws -> ServerProfileRow {
            try await Xdo.click(preferences.servers.addButton)
            let row = try #require(preferences.servers.rows.last)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(row.urlRow) }, "the new server's fields")
            return row
        }

        /// Closes Preferences with its close button.
        func close(_ preferences: PreferencesWindow, of window: ChatWindow) async throws {
            try await Xdo.focus(preferences.window)
            let closeButton = try #require(GtkTestHarness.descendant(withCSSClass: "close", in: preferences.window))
            try await Xdo.click(closeButton)
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Preferences to close")
            try await Xdo.focus(window.window)
        }

        /// Clicks into an entry row or a spin button (at its left, where the text is), selects
        /// what it holds and types `text` over it.
        func fill(_ row: UnsafeMutablePointer<GtkWidget>, with text: String) async throws {
            try await Xdo.click(row, x: 16)
            try await Xdo.key("ctrl+a")
            if text.isEmpty { try await Xdo.key("BackSpace") } else { try await Xdo.type(text) }
        }

        /// Shows a page by clicking its name in the window's view switcher.
        func showPage(_ title: String, of preferences: PreferencesWindow) async throws {
            try await GtkTestHarness.crossfadesEnded(in: preferences.window)
            let label = try #require(GtkTestHarness.reachableLabel(title, in: preferences.window), "the page “\(title)”")
            try await Xdo.click(label)
            let name = title.lowercased().replacingOccurrences(of: " ", with: "-")
            try await GtkTestHarness.pump(until: {
                adw_preferences_window_get_visible_page_name(preferences.window.cast()).map { String(cString: $0) } == name
            }, "the page “\(title)” shown")
            try await GtkTestHarness.pump(for: .milliseconds(150))
        }

        @Test("A server added in Preferences: model picked from its list, key in the keyring; chats use it; the key is on no disk")
        func serverProfileWithAKeyInTheKeyring() async throws {
            _ = try TestKeyring.directory()
            let settings = try TestTools.settings()
            let key = TestKeyring.uniqueKey()
            // The server checks the key's end; the key itself is in no URL (URLs are saved).
            let url = server.url("auth-\(key.split(separator: "-").last ?? "")")
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let preferences = try await openPreferences(window)
            let row = try await addServer(in: preferences)
            try await fill(row.urlRow, with: url)
            try await fill(row.nameRow, with: "Test server")
            try await fill(row.modelRow, with: "")
            // The key goes to the keyring first: listing the models needs it.
            try await Xdo.click(row.keyRow)
            try await Xdo.type(key)
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: {
                String(cString: adw_preferences_row_get_title(row.keyRow.cast())) == "API Key (one is stored in your keyring)"
            }, "the key to be saved")
            #expect(PreferenceRows.text(of: row.keyRow).isEmpty, "the field does not keep the key")

            try await Xdo.click(row.listModelsButton)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(row.modelsRow) }, "the server's models")
            try await Xdo.click(row.modelsRow)
            let popover = try #require(GtkTestHarness.descendant(ofType: "GtkPopover", in: row.modelsRow))
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(popover) }, "the list of models")
            try await Xdo.click(try #require(GtkTestHarness.mappedLabel("test-model-large", in: popover)))
            try await GtkTestHarness.pump(until: { PreferenceRows.text(of: row.modelRow) == "test-model-large" }, "the model picked")
            #expect(settings.serverProfiles.isEmpty, "nothing is written while Preferences is open")
            try await close(preferences, of: window)

            let saved = try #require(settings.serverProfiles.first)
            #expect(saved.name == "Test server" && saved.url == url && saved.model == "test-model-large")
            #expect(settings.activeProfileID == saved.id, "the new server is where chats go")
            #expect(window.viewModel.connection.modelName == "test-model-large")
            #expect(window.header.subtitleText.contains("test-model-large"))
            try await GtkTestHarness.send("Is the key sent?", in: window, timeout: .seconds(60))
            #expect(window.viewModel.conversation.messages.last?.text == "Authorized reply", "the request carried the keyring's key")

            let leaks = TestKeyring.files(containing: key, under: TestKeyring.userDirectories() + [FileManager.default.temporaryDirectory])
            #expect(leaks.isEmpty, "the key is in no settings, data or cache file: \(leaks)")
            #expect(await SecretStore().key(for: saved.id)?.value == key)
            await SecretStore().clear(saved.id)
        }

        @Test("Generation, tools, the system prompt and the local model: written when Preferences closes, then in the requests")
        func generationAndToolSettings() async throws {
            let settings = try TestTools.settings()
            let marker = UUID().uuidString
            let profile = ServerProfile(name: "Echo", url: server.url("echo/\(marker)"), model: "echo-model")
            settings.saveProfile(profile)
            settings.activeProfileID = profile.id
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let preferences = try await openPreferences(window)

            try await showPage("Generation", of: preferences)
            let generation = preferences.generation
            #expect(gtk_widget_is_sensitive(generation.temperature) == 0, "the server's default until switched on")
            try await Xdo.click(generation.customTemperature)
            try await GtkTestHarness.pump(until: { gtk_widget_is_sensitive(generation.temperature) != 0 }, timeout: .seconds(3),
                                          "switching it on to make the temperature editable")
            try await fill(generation.temperature, with: "0.3")
            try await Xdo.key("Tab")
            try await fill(generation.maxTokens, with: "100")
            try await Xdo.key("Tab")
            try await Xdo.click(generation.systemPrompt)
            try await Xdo.type("Answer in one sentence.")
            #expect(settings.systemPrompt.isEmpty && settings.temperature == nil, "typing writes nothing")

            try await showPage("Tools", of: preferences)
            let tools = preferences.tools
            try await Xdo.click(tools.locationSwitch)
            try await fill(tools.manualLocation, with: "north of here")
            #expect(GtkTestHarness.isVisible(tools.locationProblem), "a location it cannot read is pointed out")
            try await fill(tools.manualLocation, with: "48.8566, 2.3522")
            #expect(!GtkTestHarness.isVisible(tools.locationProblem))

            try await showPage("Models", of: preferences)
            try await Xdo.click(try #require(preferences.localModel.choices.last))
            try await close(preferences, of: window)

            #expect(settings.temperature == 0.3 && settings.maxTokens == 100 && settings.systemPrompt == "Answer in one sentence.")
            #expect(settings.disabledTools == ["get_location"])
            #expect(settings.manualLocation == Coordinates(latitude: 48.8566, longitude: 2.3522))
            #expect(settings.localModel == .gemma3)
            try await GtkTestHarness.send("Hello there", in: window, timeout: .seconds(60))
            let request = try #require(try await server.requests(containing: marker).last)
            let body = try #require(request["body"] as? [String: Any])
            #expect(body["temperature"] as? Double == 0.3)
            #expect(body["max_tokens"] as? Int == 100)
            let messages = try #require(body["messages"] as? [[String: Any]])
            #expect(messages.first?["role"] as? String == "system" && messages.first?["content"] as? String == "Answer in one sentence.")
            let toolNames = (body["tools"] as? [[String: Any]] ?? []).compactMap { ($0["function"] as? [String: Any])?["name"] as? String }
            #expect(toolNames == ["get_datetime"], "get_location was switched off")
        }

        @Test("Closing Preferences after changing the system prompt: a streaming reply goes on to its end, unmarked")
        func closingPreferencesLeavesAReplyAlone() async throws {
            let settings = try TestTools.settings()
            let scenario = server.gate()
            let profile = ServerProfile(name: "Slow", url: server.url(scenario), model: "slow-model")
            settings.saveProfile(profile)
            settings.activeProfileID = profile.id
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            let connection = model.connection
            try await Xdo.type("Take your time")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.conversation[1].text.isEmpty }, "the reply to start")
            let preferences = try await openPreferences(window)
            try await showPage("Generation", of: preferences)
            try await Xdo.click(preferences.generation.systemPrompt)
            try await Xdo.type("Be brief.")
            try await close(preferences, of: window)
            #expect(model.isSending, "the reply is still streaming")
            #expect(model.connection === connection, "the system prompt is not something the connection depends on")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { !model.isSending }, "the reply to end")
            #expect(model.conversation[1].state == .done)
            #expect(model.conversation[1].text.hasSuffix("as a model writes."), "all of it arrived")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: model.conversation[1].id))
            #expect(GtkTestHarness.label(row.stateLabel).isEmpty, "no mark under a reply that finished")
            #expect(settings.systemPrompt == "Be brief.")
        }

        @Test("Quitting with Preferences open (Ctrl+Q in it) writes what was changed there first")
        func quittingWritesPreferences() async throws {
            let settings = try TestTools.settings()
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let preferences = try await openPreferences(window)
            try await showPage("Generation", of: preferences)
            try await Xdo.click(preferences.generation.systemPrompt)
            try await Xdo.type("Be brief.")
            try await Xdo.key("ctrl+q")
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Preferences to close")
            #expect(settings.systemPrompt == "Be brief.")
        }

        @Test("Closing Preferences after a change the local model does not depend on leaves it running: no restart")
        func closingPreferencesKeepsTheLocalModel() async throws {
            let settings = try TestTools.settings()
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            #expect(model.connection.isLocal)
            try await GtkTestHarness.send("Say hello.", in: window, timeout: .seconds(60))
            let connection = model.connection
            try await GtkTestHarness.pump(until: { model.status.connection == .ready }, timeout: .seconds(60), "the local model ready")
            let before = try #require(Self.llamaServers(of: getpid()))
            let preferences = try await openPreferences(window)
            try await showPage("Generation", of: preferences)
            try await Xdo.click(preferences.generation.systemPrompt)
            try await Xdo.type("Be brief.")
            try await close(preferences, of: window)
            try await GtkTestHarness.pump(for: .milliseconds(500))
            #expect(model.connection === connection)
            #expect(Self.llamaServers(of: getpid()) == before, "the same llama-server, still running")
            #expect(model.status.connection == .ready)
            try await GtkTestHarness.send("And goodbye.", in: window, timeout: .seconds(60))
            #expect(model.conversation.messages.last?.state == .done)
            #expect(Self.llamaServers(of: getpid()) == before, "and it answered the next message")
        }

        /// The llama-server processes `parent` started.
        static func llamaServers(of parent: pid_t) -> Set<pid_t>? {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            let found = Set(entries.compactMap { entry -> pid_t? in
                guard let pid = pid_t(entry), let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                      name.hasPrefix("llama-server"),
                      let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                      status.contains("PPid:\t\(parent)\n"), !status.contains("State:\tZ") else { return nil }
                return pid
            })
            return found.isEmpty ? nil : found
        }

        @Test("A connection change while a reply streams takes over when the reply has ended; the reply is never cut")
        func connectionChangeWaitsForTheReply() async throws {
            let settings = try TestTools.settings()
            let scenario = server.gate()
            let profile = ServerProfile(name: "Slow", url: server.url(scenario), model: "slow-model")
            settings.saveProfile(profile)
            settings.activeProfileID = profile.id
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            let connection = model.connection
            try await Xdo.type("Take your time")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.conversation[1].text.isEmpty }, "the reply to start")
            let preferences = try await openPreferences(window)
            try await showPage("Generation", of: preferences)
            try await Xdo.click(preferences.generation.customTemperature)
            try await GtkTestHarness.pump(until: { gtk_widget_is_sensitive(preferences.generation.temperature) != 0 }, "the temperature on")
            try await close(preferences, of: window)
            #expect(model.isSending && model.connection === connection, "the reply goes on where it started")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { !model.isSending }, "the reply to end")
            #expect(model.conversation[1].state == .done)
            #expect(model.connection !== connection && model.connection.options.temperature == 0.7, "then the new settings apply")
        }
    }
}
