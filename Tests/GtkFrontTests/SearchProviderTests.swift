import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// GNOME Shell's search provider, asked over the session bus as the Shell asks it (with
    /// `gdbus call`): results for terms, their metas, a result activated, "search in Agent".
    @MainActor
    @Suite("GNOME Shell search provider (D-Bus, GTK under Xvfb)", .serialized)
    struct SearchProviderTests {
        let server = TestServer.shared

        /// `gdbus call` of `method` on the provider of `app`; its printed answer.
        func call(_ app: AgentApplication, _ method: String, _ arguments: String...) async throws -> String {
            let gApplication = UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self)
            // The test's app does not own its name (it is not unique): its connection's own name reaches it.
            let connection = try #require(g_application_get_dbus_connection(gApplication))
            let name = String(cString: try #require(g_dbus_connection_get_unique_name(connection)))
            let path = SearchProvider.objectPath(under: String(cString: try #require(g_application_get_dbus_object_path(gApplication))))
            let result = try await GtkTestHarness.run(URL(filePath: "/usr/bin/gdbus"),
                                                      ["call", "--session", "--dest", name, "--object-path", path,
                                                       "--method", "\(SearchProvider.interface).\(method)"] + arguments)
            #expect(result.status == 0, "\(method) \(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        @Test("Terms find chats by message text; metas give the chat's title and the matching line; activating opens that chat at that message; LaunchSearch opens the app's search")
        func overviewSearch() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-search-\(UUID())/chats.sqlite")
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), store: try ChatStore(file: file),
                                                settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.send("Where do flamingos sleep?", in: window)
            let flamingos = try #require(window.viewModel.chat?.id)
            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.send("A recipe for pancakes", in: window)
            #expect(window.viewModel.chat?.id != flamingos)

            let results = try await call(app, "GetInitialResultSet", "['flamin']")
            let question = try #require(window.library?.store.messages(in: flamingos).first?.message)
            let id = "\(flamingos.uuidString)/\(question.id.uuidString)"
            #expect(results.contains("'\(id)'"), "\(results)")
            let pancakes = try #require(window.viewModel.chat?.id)
            #expect(!results.contains(pancakes.uuidString), "only the chat that has the words")
            #expect(try await call(app, "GetSubsearchResultSet", "\(results.dropFirst().dropLast(2))", "['flamingos', 'sleep']")
                .contains("'\(id)'"))
            let metas = try await call(app, "GetResultMetas", "['\(id)']")
            #expect(metas.contains("'name': <'Where do flamingos sleep?'>"), "\(metas)")
            #expect(metas.contains("'description': <'Where do flamingos sleep?'>"), "the line found: \(metas)")

            // A new search forgets the last one's results: an id from it (as after a restart
            // between the Shell's calls) is looked up in the store; a malformed one is left out.
            #expect(try await call(app, "GetInitialResultSet", "['nothinglikethis']") == "(@as [],)")
            let again = try await call(app, "GetResultMetas", "['\(id)', 'nonsense']")
            #expect(again.contains("'name': <'Where do flamingos sleep?'>") && !again.contains("nonsense"), "\(again)")

            _ = try await call(app, "ActivateResult", id, "['flamin']", "0")
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.id == flamingos }, "the chat found")
            #expect(window.viewModel.focusedMessageID == question.id, "opened at the message found")

            _ = try await call(app, "LaunchSearch", "['pancake']", "0")
            let entry = try #require(window.sidebar?.searchEntry)
            try await GtkTestHarness.pump(until: { String(cString: gtk_editable_get_text(entry.opaque)) == "pancake" }, "the app's search")
            try await GtkTestHarness.pump(until: { window.library?.searchResults.isEmpty == false }, "its results")
            #expect(window.library?.searchResults.allSatisfy { $0.chatID != flamingos } == true)
        }
    }
}
