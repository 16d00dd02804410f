import AgentCore
import Foundation
import TestSupport
import Testing

/// The connection the window makes from the settings Preferences writes: what its requests
/// carry.
@MainActor
@Suite("The connection the settings describe")
struct ConnectionFromSettingsTests {
    let server = TestServer.shared

    /// Settings whose chats go to a server profile at `scenario` of the test server.
    func settings(_ scenario: String, protocol kind: ChatProtocol = .openai) throws -> SettingsStore {
        let settings = try TestTools.settings()
        settings.saveProfile(ServerProfile(id: "test", name: "Test", url: server.url(scenario), protocol: kind, model: "llama3.2"))
        settings.activeProfileID = "test"
        return settings
    }

    func connection(_ settings: SettingsStore) -> ChatConnection {
        ChatConnection.fromSettings(settings, secrets: SecretStore(), toolbox: Toolbox())
    }

    @Test("Temperature left to the server's default: a chat's requests carry none; set in Preferences, they carry it",
          arguments: [ChatProtocol.openai, .ollama], [nil, 0.7] as [Double?])
    func temperature(protocol kind: ChatProtocol, temperature: Double?) async throws {
        let marker = uniqueMarker()
        let settings = try settings("\(kind == .ollama ? "ollama-echo" : "echo")/\(marker)", protocol: kind)
        #expect(settings.temperature == nil, "the server's default unless changed")
        settings.temperature = temperature
        let model = ChatViewModel(connection: connection(settings))
        model.draft = "hi"
        model.send()
        await model.waitUntilIdle()
        let request = try #require(try await server.requests(containing: marker).first)
        let body = try #require(request["body"] as? [String: Any])
        // OpenAI's sampling settings are members of the body, Ollama's of its "options".
        let sampling = kind == .ollama ? (body["options"] as? [String: Any] ?? [:]) : body
        #expect(sampling.keys.contains("temperature") == (temperature != nil), "\(body)")
        #expect(sampling["temperature"] as? Double == temperature)
    }
}
