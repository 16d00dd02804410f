import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What the app leaves behind when it ends, or its window closes: nothing it started
    /// keeps running.
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

        @Test("Closing the window stops the local model's llama-server at once, though the app stays a while for the Shell's search; the next window starts it again")
        func closingTheWindowStopsTheLocalModel() async throws {
            let settings = try TestTools.settings()
            let secrets = SecretStore()
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox())
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), preferences: preferences)
            defer { GtkTestHarness.close(app) }
            _ = try await GtkTestHarness.shown(app)
            let model = try #require(app.window?.viewModel)
            try await GtkTestHarness.pump(until: { model.status.connection == .ready }, timeout: .seconds(120), "the local model ready")
            let pid = try #require(model.connection.localServer?.pid)

            try await Xdo.key("ctrl+w")
            try await GtkTestHarness.pump(until: { app.window == nil }, "the window closed")
            let ended = try await TestTiming.eventually(within: .seconds(5)) {
                !(PreferencesWindowTests.llamaServers(of: getpid())?.contains(pid) ?? false)
            }
            #expect(ended, "llama-server \(pid) outlived the window")
            #expect(model.status.connection == .idle)

            g_application_activate(UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self))
            let (_, again) = try await GtkTestHarness.shown(app)
            try await GtkTestHarness.pump(until: { again.viewModel.status.connection == .ready }, timeout: .seconds(120),
                                          "the local model ready again")
            let restarted = try #require(model.connection.localServer?.pid)
            #expect(restarted != pid && PreferencesWindowTests.llamaServers(of: getpid())?.contains(restarted) == true)
        }
    }
}
