import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Preferences › Generation's Context Budget, typed in as a person does, read back from
    /// what the server's requests carry: the whole chat under the default 4096, only the newest
    /// turn once the budget is too small for more.
    @MainActor
    @Suite("Context budget (GTK under Xvfb)", .serialized)
    struct ContextBudgetWindowTests {
        let server = TestServer.shared
        let preferencesSteps = PreferencesWindowTests()

        /// The texts of the messages the last request of `marker` carried.
        func lastRequestMessages(_ marker: String) async throws -> [String] {
            let body = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
            let messages = try #require(body["messages"] as? [[String: Any]])
            return messages.compactMap { $0["content"] as? String }
        }

        @Test("The Context Budget set in Preferences governs what a request carries: all of a short chat under 4096, only the newest turn under 256")
        func budgetFromPreferencesTrimsTheRequest() async throws {
            let settings = try TestTools.settings()
            #expect(settings.contextBudget == 4096)
            let marker = uniqueMarker()
            let profile = ServerProfile(name: "Echo", url: server.url("echo/\(marker)"), model: "echo-model")
            settings.saveProfile(profile)
            settings.activeProfileID = profile.id
            let (app, window) = try await preferencesSteps.launch(settings: settings)
            defer { GtkTestHarness.close(app) }

            // About 100 estimated tokens each, and as many again for each echo.
            func message(_ topic: String) -> String { String(repeating: "Tell me about \(topic). ", count: 16).trimmed }
            try await GtkTestHarness.send(message("pelicans"), in: window, timeout: .seconds(60))
            try await GtkTestHarness.send(message("herons"), in: window, timeout: .seconds(60))
            #expect(try await lastRequestMessages(marker).count == 3, "under 4096 the whole chat goes")

            let preferences = try await preferencesSteps.openPreferences(window)
            try await preferencesSteps.showPage("Generation", of: preferences)
            try await preferencesSteps.fill(preferences.generation.contextBudget, with: "256")
            try await Xdo.key("Tab")
            #expect(settings.contextBudget == 4096, "nothing written while Preferences is open")
            try await preferencesSteps.close(preferences, of: window)
            #expect(settings.contextBudget == 256)

            let newest = message("storks")
            try await GtkTestHarness.send(newest, in: window, timeout: .seconds(60))
            #expect(try await lastRequestMessages(marker) == [newest], "under 256 only the newest turn fits")
        }
    }
}
