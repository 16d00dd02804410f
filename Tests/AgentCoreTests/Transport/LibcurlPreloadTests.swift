@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// Writing the first character of a message starts loading libcurl, so that sending does not
/// wait for it; in a fresh process, where no other test has loaded it yet.
@MainActor
@Suite("Writing a message loads libcurl before it is sent")
struct LibcurlPreloadTests {
    /// Whether libcurl is mapped into this process.
    static func libcurlLoaded() throws -> Bool {
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? maps.close() }
        let text = String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
        try #require(text.contains("libswiftCore") || text.contains("AgentPackageTests"), "the maps were read")
        return text.contains("libcurl.so.4")
    }

    @Test("The first character in the entry loads libcurl; an empty view model does not")
    func firstCharacterLoadsLibcurl() async throws {
        guard ChildTestRun.isChild else {
            try ChildTestRun.pass("LibcurlPreloadTests/firstCharacterLoadsLibcurl")
            return
        }
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: "http://127.0.0.1:9/v1", model: "m")))
        try await Task.sleep(for: .milliseconds(200))
        #expect(try !Self.libcurlLoaded(), "loaded before anything was written")
        model.draft = "H"
        let deadline = ContinuousClock.now + .seconds(30)
        while try !Self.libcurlLoaded(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try Self.libcurlLoaded())
    }
}
