import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What the window says when it cannot do its job from the start — in the window, never
    /// in a modal alert that would take the keys the user is already typing.
    @MainActor
    @Suite("Starting up (GTK under Xvfb)", .serialized)
    struct StartupTests {
        @Test("No local runtime installed: the empty chat says so and how to set it up; every key typed reaches the entry")
        func noRuntimeInstalled() async throws {
            let connection = ChatConnection(localServer: LocalModelServer(runtimeDirectory: URL(filePath: "/nonexistent/runtime")))
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), connection: connection)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await Xdo.type("Hello there")
            try await GtkTestHarness.pump(until: {
                if case .unavailable = window.viewModel.status.connection { true } else { false }
            }, "the runtime to be found missing")
            try await Xdo.type(" friend")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(window.alert == nil, "no alert")
            #expect(window.composer.input.text == "Hello there friend", "no key was lost")
            let page = window.chatPage.emptyPage
            #expect(page.title == "The Local Model Is Not Set Up")
            #expect(window.chatPage.runtimeSetup.isShown, "the set-up is offered")
            #expect(page.descriptionText.contains(LocalRuntime.installCommand), "\(page.descriptionText)")
            #expect(window.header.subtitleText == "SmolLM2-135M-Instruct · not set up yet")
        }

        @Test("Chats that could not be opened: a banner says so, and the window still chats")
        func storeProblem() async throws {
            let server = TestServer.shared
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"),
                                                storeProblem: "Your chats could not be opened (database is locked).")
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.pump(until: { window.chatPage.banner.text != nil }, "the banner")
            #expect(window.chatPage.banner.text?.contains("Your chats could not be opened") == true)
            #expect(window.alert == nil)
            try await Xdo.type("Still here?")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2 && !window.viewModel.isSending }, "the reply")
            #expect(window.viewModel.conversation[1].text == "Echo: Still here? (1 messages)")
        }
    }
}
