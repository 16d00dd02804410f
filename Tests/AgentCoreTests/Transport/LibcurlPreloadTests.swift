@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// libcurl loaded ahead of the first transfer, on a thread of its own; in a fresh process,
/// where no other test has loaded it yet.
@MainActor
@Suite("libcurl loaded before the first transfer")
struct LibcurlPreloadTests {
    @Test("Nothing loads libcurl before a transfer or the preload; the preload loads it")
    func preloadLoadsLibcurl() async throws {
        if try await ChildTestRun.passedInAFreshProcess("LibcurlPreloadTests/preloadLoadsLibcurl") { return }
        _ = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: "http://127.0.0.1:9/v1", model: "m")))
        #expect(try !LoadedLibraries.contain("libcurl.so.4"), "loaded before it was asked for")
        LibcurlPreload.begin()
        let deadline = ContinuousClock.now + .seconds(30)
        while try !LoadedLibraries.contain("libcurl.so.4"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try LoadedLibraries.contain("libcurl.so.4"))
    }
}
