@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// A chat started from a preset keeps a copy of the preset's settings: changing or deleting
/// the preset afterwards changes neither what the chat's requests carry nor what it reopens with.
@MainActor
@Suite("A chat keeps its own copy of its preset")
struct ChatPresetCopyTests: ViewModelTesting {
    /// What chat request `index` (among those whose path holds `marker`; model listings left out) carried: system prompt,
    /// model, temperature, length, tools.
    func carried(_ marker: String, _ index: Int) async throws -> ChatSettings {
        let requests = try await server.requests(containing: marker).compactMap { $0["body"] as? [String: Any] }
        let body = try #require(requests.indices.contains(index) ? requests[index] : nil, "request \(index) of \(requests.count)")
        let messages = body["messages"] as? [[String: Any]] ?? []
        return ChatSettings(systemPrompt: messages.first { $0["role"] as? String == "system" }?["content"] as? String ?? "",
                            model: (body["model"] as? String).map(ModelChoice.server), temperature: body["temperature"] as? Double,
                            maxTokens: body["max_tokens"] as? Int, toolsEnabled: body["tools"] != nil)
    }

    @Test("The preset changed, then deleted: the chat's requests, its stored settings and the chat reopened keep what it started with")
    func presetChangedThenDeleted() async throws {
        let marker = uniqueMarker()
        let store = try ChatStore(file: temporaryDatabase())
        let model = viewModel("echo/\(marker)", store: store)
        let library = ChatLibrary(store: store, viewModel: model)
        var pirate = ChatPreset(name: "Pirate", systemPrompt: "Talk like a pirate.", model: .server("test-model-large"), temperature: 1.1,
                                maxTokens: 90, toolsEnabled: false)
        #expect(library.savePreset(pirate))
        library.newChat(from: pirate)
        await send("Ahoy", in: model)
        let chatID = try #require(model.chat).id
        let copy = ChatSettings(systemPrompt: "Talk like a pirate.", model: .server("test-model-large"), temperature: 1.1, maxTokens: 90,
                                toolsEnabled: false)
        #expect(try await carried(marker, 0) == copy)

        pirate.systemPrompt = "Talk like a robot."
        pirate.model = .server("test-model")
        pirate.temperature = 0.2
        pirate.maxTokens = 500
        pirate.toolsEnabled = true
        #expect(library.savePreset(pirate))
        await send("Again", in: model)
        #expect(try await carried(marker, 1) == copy, "the changed preset")
        #expect(try store.chat(chatID)?.settings == copy)

        #expect(library.deletePreset(pirate.id))
        library.newChat(from: nil)
        library.open(chatID)
        #expect(model.chat?.id == chatID)
        #expect(model.settings == copy, "reopened after the preset was deleted")
        #expect(model.presetName == "Pirate", "the name it started from stays with it")
        await send("Still", in: model)
        #expect(try await carried(marker, 2) == copy, "the deleted preset")
    }
}
