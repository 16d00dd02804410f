import AgentCore
import Foundation
import TestSupport
import Testing

@Suite("agent-cli --chat with the chat's own model")
struct AgentCLIChatModelTests {
    let server = TestServer.shared

    @Test("--chat ID continues with the model chosen for the chat; --model overrides it")
    func continuesWithTheChosenModel() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", "new", "Hello"], environment: home)
        let id = try #require(AgentCLIChatTests.chatID(in: made.stderr).flatMap(UUID.init(uuidString:)))
        try AgentCLIChatTests.store(in: home).setChosenModel(id, .server("test-model-large"))

        let chosen = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id.uuidString, "Again"], environment: home)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let overridden = try await ProductRunner.run("agent-cli", ["--server", url, "--model", "test-model", "--chat", id.uuidString, "Once more"],
                                                     environment: home)
        #expect(overridden.status == 0, "\(overridden.stderr)")
        let models = try await server.requests(containing: marker).compactMap { ($0["body"] as? [String: Any])?["model"] as? String }
        #expect(models == [LaunchOptions.defaultRemoteModel, "test-model-large", "test-model"])
    }
}
