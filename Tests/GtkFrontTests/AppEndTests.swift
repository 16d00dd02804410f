import AgentCore
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What the app leaves behind when it ends: nothing it started keeps running.
    @MainActor
    @Suite("The app's end (GTK under Xvfb, real llama-server)", .serialized)
    struct AppEndTests {
        @Test("Closing the app stops the llama-server its settings' local model runs on, as quitting does")
        func closingStopsTheLocalModel() async throws {
            let settings = try TestTools.settings()
            let secrets = SecretStore()
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox())
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), preferences: preferences)
            var closed = false
            defer { if !closed { GtkTestHarness.close(app) } }
            let (_, window) = try await GtkTestHarness.shown(app)
            let model = window.viewModel
            #expect(model.connection.isLocal, "no server set up: chats go to the local model")
            try await GtkTestHarness.pump(until: { model.status.connection == .ready }, timeout: .seconds(120), "the local model ready")
            let pid = try #require(model.connection.localServer?.pid)
            #expect(PreferencesWindowTests.llamaServers(of: getpid())?.contains(pid) == true)

            GtkTestHarness.close(app)
            closed = true
            let ended = try await TestTiming.eventually(within: .seconds(5)) {
                !(PreferencesWindowTests.llamaServers(of: getpid())?.contains(pid) ?? false)
            }
            #expect(ended, "llama-server \(pid) outlived the app that started it")
        }
    }
}
