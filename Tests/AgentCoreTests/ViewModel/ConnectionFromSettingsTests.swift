import AgentCore
import Foundation
import TestSupport
import Testing

/// The connection the window makes from the settings Preferences writes: what its requests
/// carry and how long they wait.
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

    /// The idle timeout the connection's requests are sent with.
    func idleTimeout(_ settings: SettingsStore) async throws -> Duration? {
        let backend = try await connection(settings).backend()
        return try #require(backend as? OpenAIChatClient).endpoint.idleTimeout
    }

    @Test("The idle-timeout setting: 60 seconds unless changed, 0 for no limit, and a server that stalls is given up on after it")
    func idleTimeoutSetting() async throws {
        let marker = uniqueMarker()
        let settings = try settings("stall/\(marker)")
        #expect(try await idleTimeout(settings) == .seconds(60))
        settings.root.set("idle-timeout", 0)
        #expect(try await idleTimeout(settings) == nil)
        // Longer than a loaded test server takes to send the stall's first word.
        let limit = 3 * TestTiming.scale
        settings.root.set("idle-timeout", limit)
        let backend = try await connection(settings).backend()
        var text = ""
        var caught: (any Error)?
        do {
            for try await event in backend.replyEvents(to: [ChatMessage(role: .user, text: "hi", state: .done)]) {
                if case .text(let piece) = event { text += piece }
            }
        } catch {
            caught = error
        }
        #expect(text == "Waiting")
        #expect(caught as? ChatError == .stalled(url: server.url("stall/\(marker)") + "/v1/chat/completions", seconds: limit))
        #expect(try await server.event("client-closed", containing: marker), "the stalled connection was closed")
    }
}
