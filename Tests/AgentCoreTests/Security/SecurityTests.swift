import AgentCore
import Foundation
import TestSupport
import Testing

/// What the app must never do: leave a key behind, run SQL built from text, hand the model
/// a shell or the file system.
@Suite("Security")
struct SecurityTests {
    let server = TestServer.shared

    @Test("After a stored chat with an API key, no file under the data, config, cache or state dirs holds the key")
    func theKeyLeavesNoTrace() async throws {
        let base = FileManager.default.temporaryDirectory.appending(path: "agent-security-\(UUID())")
        let home = ["XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache", "XDG_STATE_HOME": "state"]
            .mapValues { base.appending(path: $0).path }
        let key = "sk-test-\(UUID().uuidString)"
        let environment = home.merging(["AGENT_TEST_KEY": key]) { $1 }
        // The key server wants "secret-key": one exchange that works, one refused with the wrong key.
        let good = try await ProductRunner.run("agent-cli", ["--server", server.url("auth"), "--api-key-env", "GOOD_KEY",
                                                             "--chat", "new", "Hello"],
                                               environment: environment.merging(["GOOD_KEY": "secret-key"]) { $1 })
        #expect(good.status == 0 && good.stdout == "Authorized reply\n", "\(good.stderr)")
        let refused = try await ProductRunner.run("agent-cli", ["--server", server.url("auth"), "--api-key-env", "AGENT_TEST_KEY",
                                                                "--chat", "new", "Hello again"], environment: environment)
        #expect(refused.status == 1)
        #expect(!refused.stdout.contains(key) && !refused.stderr.contains(key))

        let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } ?? []
        #expect(files.contains { $0.lastPathComponent == "chats.sqlite" }, "the chats were stored: \(files)")
        for file in files {
            let contents = try Data(contentsOf: file)
            for secret in [key, "secret-key"] {
                #expect(contents.range(of: Data(secret.utf8)) == nil, "\(file.path) holds an API key")
            }
        }
    }

    @Test("The model gets get_location and get_datetime, nothing that runs commands or touches files")
    func theToolboxHasNoShellOrFiles() throws {
        let settings = try TestTools.settings()
        let toolbox = Toolbox.standard(settings: settings, locationSource: nil, askConsent: { .deny })
        #expect(toolbox.definitions.map(\.name).sorted() == ["get_datetime", "get_location"])
    }

    @Test("SQL is never built from text: hostile titles, messages and searches are stored and found as text")
    func hostileTextStaysText() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "agent-security-\(UUID()).sqlite")
        let store = try ChatStore(file: file)
        let hostile = "Robert'); DROP TABLE messages; --"
        let chat = try store.createChat(ChatSummary(title: hostile))
        try store.save(ChatMessage(role: .user, text: hostile, state: .done), in: chat.id, seq: 0)
        try store.save(ChatMessage(role: .assistant, text: "\" OR 1=1; DELETE FROM chats; --", state: .done), in: chat.id, seq: 1)

        #expect(try store.chats().map(\.title) == [hostile])
        #expect(try store.messages(in: chat.id).map(\.message.text) == [hostile, "\" OR 1=1; DELETE FROM chats; --"])
        for query in ["' OR 1=1 --", "\" OR \"\"=\"", "*", "NEAR(", "messages; DROP TABLE chats"] {
            _ = try store.search(query)
        }
        #expect(try store.search("DROP TABLE").count >= 1, "found as the words they are")
        #expect(try store.chats().count == 1 && store.messages(in: chat.id).count == 2, "nothing was dropped or deleted")
    }
}
