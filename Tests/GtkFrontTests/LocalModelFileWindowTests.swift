import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A GGUF file of the user's own, chosen in Preferences › Models as a person does —
    /// clicks, the file chooser, typed paths — then answering in the window from the real
    /// llama-server running that file; a file that is not GGUF and one that has gone, refused
    /// with a clear message.
    @MainActor
    @Suite("A GGUF file as the local model (GTK under Xvfb, real llama-server)", .serialized)
    struct LocalModelFileWindowTests {
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-gguf-window-\(UUID().uuidString)")

        func launch(settings: SettingsStore) async throws -> (AgentApplication, ChatWindow) {
            let secrets = SecretStore()
            let preferences = AppPreferences(settings: settings, secrets: secrets) {
                ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox())
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url("echo"), model: "unused"),
                                                preferences: preferences)
            return try await GtkTestHarness.shown(app)
        }

        /// The alert the page opened: its heading and message, then OK clicked.
        func dismissAlert(of page: LocalModelGroups, over preferences: PreferencesWindow) async throws -> (heading: String, body: String) {
            try await GtkTestHarness.pump(until: { page.alert != nil }, "the alert")
            let alert = try #require(page.alert)
            let said = (alert.heading, alert.body)
            try await GtkTestHarness.answer(alert, "OK")
            try await GtkTestHarness.pump(until: { page.alert == nil }, "the alert to close")
            try await Xdo.focus(preferences.window)
            return said
        }

        @Test("A file chosen outside Preferences (gsettings) is listed and selected there, and removing it goes back to SmolLM2")
        func aFileChosenElsewhere() async throws {
            let gemma = try #require(try LocalRuntime.locate().modelFiles["gemma3"], "the test runtime has Gemma 3 270M")
            let settings = try TestTools.settings()
            let profile = ServerProfile(name: "Echo", url: TestServer.shared.url("echo"), model: "echo-model")
            settings.saveProfile(profile)
            settings.activeProfileID = profile.id
            settings.localModel = .file(gemma)
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let steps = PreferencesWindowTests()
            let preferences = try await steps.openPreferences(window)
            try await steps.showPage("Models", of: preferences)
            let page = preferences.localModel
            #expect(page.fileRows.map(\.file) == [gemma])
            #expect(page.fileRows.first?.isSelected == true)
            let removeButton = try #require(page.fileRows.first).removeButton
            try await GtkTestHarness.laidOut(removeButton)
            try await Xdo.click(removeButton)
            try await GtkTestHarness.pump(until: { page.fileRows.isEmpty }, "the row gone")
            #expect(gtk_check_button_get_active(page.choices[0].cast()) != 0)
            try await steps.close(preferences, of: window)
            #expect(settings.localModel == .smolLM2 && settings.localModelFiles.isEmpty)
            #expect(FileManager.default.fileExists(atPath: gemma.path), "the file itself stays")
        }

        @Test("Gemma 3 270M's GGUF file chosen with the file chooser answers in the window; a text file and a deleted file are refused, saying why")
        func chooseAFileAndChat() async throws {
            let gemma = try #require(try LocalRuntime.locate().modelFiles["gemma3"], "the test runtime has Gemma 3 270M")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let notes = folder.appending(path: "notes.gguf")
            try Data("Not a model, just notes.\n".utf8).write(to: notes)
            let gone = folder.appending(path: "deleted-model.gguf")
            let settings = try TestTools.settings()
            settings.localModelFiles = [gone]
            // A base model rambles: a short reply keeps the test quick on a loaded machine.
            settings.maxTokens = 24
            let (app, window) = try await launch(settings: settings)
            defer { GtkTestHarness.close(app) }
            let steps = PreferencesWindowTests()
            let preferences = try await steps.openPreferences(window)
            try await steps.showPage("Models", of: preferences)
            let page = preferences.localModel

            // The remembered file that has gone: shown as missing; picking it says so and changes nothing.
            let missing = try #require(page.fileRows.first)
            #expect(!missing.isPresent)
            #expect(adw_action_row_get_subtitle(missing.widget.cast()).map { String(cString: $0) } == "Missing: no longer at \(AppIdentity.tildePath(gone.path))")
            try await GtkTestHarness.laidOut(missing.button)
            try await Xdo.click(missing.button)
            let missingAlert = try await dismissAlert(of: page, over: preferences)
            #expect(missingAlert.heading == "Model File Missing")
            #expect(missingAlert.body.contains("“deleted-model.gguf” is no longer at \(gone.path)"), "\(missingAlert.body)")
            #expect(settings.localModel == .smolLM2)
            #expect(gtk_check_button_get_active(page.choices[0].cast()) != 0, "the model in use stays selected")

            // A file that is not GGUF, whatever its name.
            try await Xdo.click(page.chooseRow)
            try await GtkTestHarness.chooseFile(notes, over: preferences.window)
            let refusal = try await dismissAlert(of: page, over: preferences)
            #expect(refusal.heading == "Not a Model File")
            #expect(refusal.body.contains("“notes.gguf” is not a GGUF model file"), "\(refusal.body)")
            #expect(settings.localModelFiles == [gone])

            // The real model file.
            try await Xdo.click(page.chooseRow)
            try await GtkTestHarness.chooseFile(gemma, over: preferences.window)
            try await GtkTestHarness.pump(until: { page.fileRows.count == 2 }, "the file's row")
            let chosen = page.fileRows[1]
            #expect(chosen.file == gemma && chosen.isPresent && chosen.isSelected)
            #expect(settings.localModelFiles == [gone], "nothing is written until Preferences closes")

            try await steps.close(preferences, of: window)
            #expect(settings.localModel == .file(gemma), "written when Preferences closed")
            #expect(settings.localModelFiles == [gone, gemma], "and remembered")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.connection.modelName == "gemma-3-270m-q4_k_m" }, "the chat to use the file")

            try await Xdo.click(window.composer.input.textView)
            try await Xdo.type("Hello! What is the capital of France?")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !model.isSending && model.conversation.count == 2 }, timeout: .seconds(180), "the reply")
            #expect(!model.status.showError, "\(model.status.errorMessage)")
            let reply = model.conversation[1]
            #expect(reply.state == .done && !reply.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            #expect(reply.model == "gemma-3-270m-q4_k_m")
            #expect(model.connection.localServerProps?.modelPath == gemma.path, "llama-server ran the chosen file")
            #expect(model.requestBudget == 16384 - 24 - 2048, "the budget comes from the server's context, less the reply and a margin")
        }
    }
}
