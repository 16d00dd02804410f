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
        /// The app with no server set up, its window shown: chats go to the local model,
        /// whose llama-server is then ready; the view model and that server's process.
        func launchOnTheLocalModel() async throws -> (AgentApplication, ChatViewModel, pid_t) {
            let settings = try TestTools.settings()
            let secrets = SecretStore()
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox())
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), preferences: preferences)
            do {
                // The window is not kept: a test may close it.
                let model = try await GtkTestHarness.shown(app).1.viewModel
                #expect(model.connection.isLocal, "no server set up: chats go to the local model")
                try await GtkTestHarness.pump(until: { model.status.connection == .ready }, timeout: .seconds(120), "the local model ready")
                let pid = try #require(model.connection.localServer?.pid)
                #expect(isRunning(pid))
                return (app, model, pid)
            } catch {
                GtkTestHarness.close(app)
                throw error
            }
        }

        func isRunning(_ pid: pid_t) -> Bool {
            PreferencesWindowTests.llamaServers(of: getpid())?.contains(pid) ?? false
        }

        @Test("The app's end (GApplication's shutdown, as after Ctrl+Q) stops the llama-server its settings' local model runs on, the window still open")
        func endingStopsTheLocalModel() async throws {
            let (app, _, pid) = try await launchOnTheLocalModel()
            defer { GtkTestHarness.close(app) }
            #expect(app.window != nil)
            app.shutDown()
            let ended = try await TestTiming.eventually(within: .seconds(5)) { !isRunning(pid) }
            #expect(ended, "llama-server \(pid) outlived the app that started it")
        }

        @Test("Closing the window stops the local model's llama-server at once, though the app stays a while for the Shell's search; the next window starts it again")
        func closingTheWindowStopsTheLocalModel() async throws {
            let (app, model, pid) = try await launchOnTheLocalModel()
            defer { GtkTestHarness.close(app) }

            try await Xdo.key("ctrl+w")
            try await GtkTestHarness.pump(until: { app.window == nil }, "the window closed")
            let ended = try await TestTiming.eventually(within: .seconds(5)) { !isRunning(pid) }
            #expect(ended, "llama-server \(pid) outlived the window")
            #expect(model.status.connection == .idle)

            g_application_activate(UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self))
            _ = try await GtkTestHarness.shown(app)
            try await GtkTestHarness.pump(until: { model.status.connection == .ready }, timeout: .seconds(120), "the local model ready again")
            let restarted = try #require(model.connection.localServer?.pid)
            #expect(restarted != pid && isRunning(restarted))
        }
    }
}
