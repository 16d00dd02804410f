import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A model server found running on this computer, offered in the window as a person meets
    /// it: an imitation Ollama on its own port 11434 (skipped, saying so, when the port is taken
    /// on this machine), the offer at start and in Preferences › Servers, taken with a click.
    @MainActor
    @Suite("Servers found on this computer (GTK under Xvfb)", .serialized,
           .enabled(if: LocalModelServerImitation.isFree(11434),
                    "port 11434 is taken on this machine (another program listens there), so no imitation Ollama can run there"))
    struct FoundServerWindowTests {
        static let ollamaURL = "http://127.0.0.1:11434"

        /// The app with chats going to the local model (`runtime`: where its runtime is).
        func launch(settings: SettingsStore, runtime: URL = LocalRuntime.defaultDirectory) async throws -> (AgentApplication, ChatWindow) {
            let secrets = SecretStore()
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox())
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://unused", model: "unused"), preferences: preferences,
                                                connection: ChatConnection(localServer: LocalModelServer(runtimeDirectory: runtime)))
            return try await GtkTestHarness.shown(app)
        }

        /// The app with chats going to a local model that is not installed, and Preferences open on it.
        func openPreferences(settings: SettingsStore) async throws -> (AgentApplication, ChatWindow, PreferencesWindow) {
            let noRuntime = FileManager.default.temporaryDirectory.appending(path: "no-runtime-\(UUID())")
            let (app, window) = try await launch(settings: settings, runtime: noRuntime)
            return (app, window, try await PreferencesWindowTests().openPreferences(window))
        }

        /// Waits for the look at this computer's ports after the first frame, and its offer.
        func offer(in window: ChatWindow) async throws -> FoundServerOffer {
            let offer = try #require(window.serverOffer)
            try await GtkTestHarness.pump(until: { offer.looked }, "the look at this computer's ports")
            try await GtkTestHarness.pump(until: { gtk_revealer_get_child_revealed(offer.banner.widget.opaque) != 0 },
                                          "the offer on screen, slid down")
            try await GtkTestHarness.laidOut(offer.banner.button)
            return offer
        }

        @Test("At start, with chats on the local model: the window offers the Ollama it found, and Use It sends chats there")
        func startupOffer() async throws {
            let ollama = try LocalModelServerImitation(.ollama, port: 11434)
            defer { ollama.stop() }
            let settings = try TestTools.settings()
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let offer = try await offer(in: window)
            #expect(offer.banner.text == "Ollama is running on this computer · 2 models")
            #expect(offer.server?.url == Self.ollamaURL)

            try await Xdo.click(offer.banner.button)
            try await GtkTestHarness.pump(until: { window.viewModel.connection.modelName == "llama3.2:latest" }, "chats to go to Ollama")
            let profile = try #require(settings.serverProfiles.first)
            #expect(profile.url == Self.ollamaURL && profile.protocolKind == .ollama && profile.name == "Ollama on this computer")
            #expect(settings.activeProfileID == profile.id)
            #expect(offer.banner.text == nil, "the offer is gone once taken")
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Chats now go to Ollama on this computer") },
                                          "the toast saying where chats go")
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("hello there", in: window, timeout: .seconds(60))
            #expect(window.viewModel.conversation.messages.last?.text == "Echo: hello there", "Ollama answered")
        }

        @Test("A dismissed offer is not made again; a server already added is not offered")
        func dismissedAndAddedServers() async throws {
            let ollama = try LocalModelServerImitation(.ollama, port: 11434)
            defer { ollama.stop() }
            let noRuntime = FileManager.default.temporaryDirectory.appending(path: "no-runtime-\(UUID())")
            let settings = try TestTools.settings()
            let (app, window) = try await launch(settings: settings, runtime: noRuntime)
            let offer = try await offer(in: window)
            try await Xdo.click(try #require(offer.banner.closeButton))
            try await GtkTestHarness.pump(until: { offer.banner.text == nil }, "the offer dismissed")
            #expect(settings.declinedFoundServers == [Self.ollamaURL])
            #expect(settings.activeProfileID == localProfileID)
            GtkTestHarness.close(app)

            let (again, window2) = try await launch(settings: settings, runtime: noRuntime)
            let offer2 = try #require(window2.serverOffer)
            try await GtkTestHarness.pump(until: { offer2.looked }, "the look at this computer's ports")
            #expect(offer2.server == nil && offer2.banner.text == nil, "declined: not offered again")
            GtkTestHarness.close(again)

            let added = try TestTools.settings()
            added.saveProfile(ServerProfile(name: "My Ollama", url: "http://localhost:11434", protocol: .ollama, model: "qwen3:0.6b"))
            let (third, window3) = try await launch(settings: added, runtime: noRuntime)
            let offer3 = try #require(window3.serverOffer)
            try await GtkTestHarness.pump(until: { offer3.looked }, "the look at this computer's ports")
            #expect(offer3.server == nil, "a profile already points there")
            GtkTestHarness.close(third)
        }

        @Test("Search Again in Preferences › Servers finds a server started after Preferences opened")
        func searchAgainFindsANewServer() async throws {
            let settings = try TestTools.settings()
            let (app, window, preferences) = try await openPreferences(settings: settings)
            defer { GtkTestHarness.close(app) }
            let found = preferences.servers.found
            try await GtkTestHarness.pump(until: { !found.isSearching }, "the look when Preferences opened")
            #expect(found.addButtons[Self.ollamaURL] == nil, "no Ollama found while none runs")

            let ollama = try LocalModelServerImitation(.ollama, port: 11434)
            defer { ollama.stop() }
            try await GtkTestHarness.laidOut(found.searchButton)
            try await Xdo.click(found.searchButton)
            try await GtkTestHarness.pump(until: { found.addButtons[Self.ollamaURL].map(GtkTestHarness.isMapped) == true },
                                          "the server started since, with its Add button")
            #expect(found.found.contains { $0.url == Self.ollamaURL && $0.title == "Ollama on this computer" })
            try await PreferencesWindowTests().close(preferences, of: window)
        }

        @Test("Preferences › Servers lists the server found; Add makes it a profile and where chats go")
        func preferencesAdd() async throws {
            let ollama = try LocalModelServerImitation(.ollama, port: 11434)
            defer { ollama.stop() }
            let settings = try TestTools.settings()
            let (app, window, preferences) = try await openPreferences(settings: settings)
            defer { GtkTestHarness.close(app) }
            let found = preferences.servers.found
            try await GtkTestHarness.pump(until: { found.addButtons[Self.ollamaURL].map(GtkTestHarness.isMapped) == true },
                                          "the server found, with its Add button")
            try await GtkTestHarness.laidOut(try #require(found.addButtons[Self.ollamaURL]))
            #expect(found.found.map(\.title) == ["Ollama on this computer"])
            let row = try #require(GtkTestHarness.mappedLabel("Ollama on this computer", in: preferences.window))
            #expect(GtkTestHarness.isMapped(row))
            #expect(GtkTestHarness.mappedLabel("\(Self.ollamaURL) · 2 models", in: preferences.window) != nil)

            try await Xdo.click(try #require(found.addButtons[Self.ollamaURL]))
            try await GtkTestHarness.pump(until: { found.addButtons.isEmpty }, "the server shown as added")
            #expect(GtkTestHarness.mappedLabel("Added", in: preferences.window) != nil)
            #expect(preferences.servers.rows.count == 1, "a profile row for it")
            try await GtkTestHarness.pump(until: {
                GtkTestHarness.mappedLabel("Chats now go to Ollama on this computer", in: preferences.window) != nil
            }, "the toast saying where chats go")

            try await Xdo.click(found.searchButton)
            try await GtkTestHarness.pump(until: { !found.isSearching }, "the second look")
            #expect(found.addButtons.isEmpty, "found again, and still shown as added, not offered twice")

            try await PreferencesWindowTests().close(preferences, of: window)
            let profile = try #require(settings.serverProfiles.first)
            #expect(profile.url == Self.ollamaURL && profile.model == "llama3.2:latest")
            #expect(settings.activeProfileID == profile.id)
            #expect(window.viewModel.connection.modelName == "llama3.2:latest")
            #expect(window.serverOffer?.banner.text == nil, "no offer of a server chats go to already")
        }
    }
}
