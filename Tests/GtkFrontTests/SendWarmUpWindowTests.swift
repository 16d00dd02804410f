import AgentCore
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What the first frame of a send would otherwise load — libcurl for the request, librsvg
    /// for the spinner's SVG icon — is loaded off the main thread while the message is typed.
    @MainActor
    @Suite("The first character typed prepares the send (GTK under Xvfb)", .serialized)
    struct SendWarmUpWindowTests {
        @Test("Typing loads libcurl and the spinner's SVG loader before Return; an idle window loads neither")
        func typingPreparesTheSend() async throws {
            // In a fresh process: the tests before this one have loaded both.
            if try ChildTestRun.passedInAFreshProcess("SendWarmUpWindowTests/typingPreparesTheSend") { return }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url("echo"), model: "m"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.pump(for: .milliseconds(300))
            #expect(try !LoadedLibraries.contain("libcurl.so.4"), "libcurl loaded by the idle window")
            #expect(try !LoadedLibraries.contain("librsvg-2.so"), "librsvg loaded by the idle window")

            try await Xdo.type("H")
            try await GtkTestHarness.pump(until: {
                (try? LoadedLibraries.contain("libcurl.so.4")) == true && (try? LoadedLibraries.contain("librsvg-2.so")) == true
            }, "libcurl and librsvg to be loaded")
            #expect(window.viewModel.isSending == false, "nothing was sent")
            #expect(window.composer.input.text == "H")
        }
    }
}
