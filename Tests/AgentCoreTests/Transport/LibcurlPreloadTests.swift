@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// Writing the first character of a message starts loading libcurl, so that sending does not
/// wait for it; in a fresh process, where no other test has loaded it yet.
@MainActor
@Suite("Writing a message loads libcurl before it is sent")
struct LibcurlPreloadTests {
    @Test("The first character in the entry loads libcurl; an empty view model does not")
    func firstCharacterLoadsLibcurl() async throws {
        guard ChildTestRun.isChild else {
            try ChildTestRun.pass("LibcurlPreloadTests/firstCharacterLoadsLibcurl")
            return
        }
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: "http://127.0.0.1:9/v1", model: "m")))
        try await Task.sleep(for: .milliseconds(200))
        #expect(try !LoadedLibraries.contain("libcurl.so.4"), "loaded before anything was written")
        model.draft = "H"
        let deadline = ContinuousClock.now + .seconds(30)
        while try !LoadedLibraries.contain("libcurl.so.4"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try LoadedLibraries.contain("libcurl.so.4"))
    }
}
