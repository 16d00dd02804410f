import AgentCore
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The dock's right-click New Chat: the desktop file's action, run through GIO as a dock
    /// runs it (Tests/Servers/launch_desktop_action.py), with this test's app running as Agent
    /// (in a process and on a session bus of its own).
    @MainActor
    @Suite("The dock's New Chat (the desktop file's action, GTK under Xvfb)", .serialized)
    struct DockActionTests {
        let server = TestServer.shared

        /// The desktop file as the source tree ships it.
        static let desktopFile = TiedProcess.serversDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "data/\(AppIdentity.applicationID).desktop")

        @Test("New Chat in the dock's menu: the running Agent's window shows a new, empty chat; the chat it showed stays saved")
        func newChatFromTheDock() async throws {
            guard ChildTestRun.isChild else {
                // This test's app takes Agent's name on the session bus, for as long as its
                // process runs: the test runs again in a child process with a session bus of its own,
                // which activates nothing that could outlive the test (nor the accessibility bus).
                try await ChildTestRun.passOnABusOfItsOwn("DockActionTests/newChatFromTheDock")
                return
            }
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-dock-\(UUID())/chats.sqlite")
            let store = try ChatStore(file: file)
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), store: store,
                                                settings: try TestTools.settings(), asAgent: true)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.send("a chat before", in: window)
            let before = try #require(window.viewModel.chat?.id)

            // The action's command is found on PATH, as an installed `agent` is.
            let products = try ProductRunner.executable("agent").deletingLastPathComponent().path
            let path = ProcessInfo.processInfo.environment["PATH"].map { "\(products):\($0)" } ?? products
            let launcher = TiedProcess.serversDirectory.appending(path: "launch_desktop_action.py")
            let launched = try await GtkTestHarness.run(URL(filePath: "/usr/bin/python3"), [launcher.path, Self.desktopFile.path, "new-chat"],
                                                        environment: ["PATH": path])
            #expect(launched.status == 0, "\(launched.stderr)")
            #expect(launched.stdout == "New Chat\n", "the menu's item")

            try await GtkTestHarness.pump(until: { window.viewModel.chat?.id != before }, "the running Agent to open a new chat")
            #expect(window.viewModel.conversation.count == 0, "a new, empty chat")
            #expect(try store.chat(before) != nil, "the chat shown before is kept")
        }
    }
}
