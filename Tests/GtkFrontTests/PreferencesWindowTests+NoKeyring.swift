import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites.PreferencesWindowTests {
    @Test("Without a keyring, a server's key row says so and why, saving the key says it is kept for this session, and chats use it")
    func withoutAKeyring() async throws {
        guard ChildTestRun.isChild else {
            // libsecret talks to the process's session bus: run this test again in a process
            // whose session bus has no Secret Service and activates nothing — nor the
            // accessibility bus, which GTK then goes without.
            try await ChildTestRun.passOnABusOfItsOwn("PreferencesWindowTests/withoutAKeyring")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-no-keyring-\(UUID().uuidString)")
        let settings = try SettingsStore(keyFile: folder.appending(path: "settings"))
        let key = TestKeyring.uniqueKey()
        let url = server.url("auth-\(key.split(separator: "-").last ?? "")")
        let secrets = SecretStore(timeout: .seconds(3))
        let (app, window) = try await launch(settings: settings, secrets: secrets)
        defer { GtkTestHarness.close(app) }
        let preferences = try await openPreferences(window)
        let row = try await addServer(in: preferences)
        let title = { String(cString: adw_preferences_row_get_title(row.keyRow.cast())) }
        try await GtkTestHarness.pump(until: { title().hasPrefix("API Key (no keyring:") }, "the key row to say there is no keyring")
        let problem = try #require(secrets.keyringProblem)
        #expect(title() == "API Key (no keyring: \(problem); kept for this session only)")
        #expect(problem.contains("org.freedesktop.secrets"), "the reason names the missing service: \(problem)")

        try await fill(row.urlRow, with: url)
        try await fill(row.modelRow, with: "m")
        try await Xdo.click(row.keyRow)
        try await Xdo.type(key)
        try await Xdo.key("Return")
        try await GtkTestHarness.pump(until: {
            GtkTestHarness.reachableLabel("No keyring: the key is kept for this session only", in: preferences.window) != nil
        }, "the notice that the key is kept for this session")
        #expect(title().hasPrefix("API Key (no keyring:"))
        #expect(PreferenceRows.text(of: row.keyRow).isEmpty, "the field does not keep the key")
        try await close(preferences, of: window)

        try await GtkTestHarness.send("Is the key sent?", in: window, timeout: .seconds(60))
        #expect(window.viewModel.conversation.messages.last?.text == "Authorized reply", "the request carried the session's key")
        let leaks = TestKeyring.files(containing: key, under: TestKeyring.userDirectories() + [folder])
        #expect(leaks.isEmpty, "the key is in no settings, data or cache file: \(leaks)")
    }
}
