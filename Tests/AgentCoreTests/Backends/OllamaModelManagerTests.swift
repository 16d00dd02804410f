import AgentCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// Managing an Ollama server's models against the scripted Ollama: the list with sizes and
/// families, a pull's streamed progress, cancelling it, deleting, and errors in Ollama's words.
@Suite("Ollama model management")
struct OllamaModelManagerTests {
    let ollama = OllamaTestServer.shared

    func manager(_ store: String) -> OllamaModelManager {
        OllamaModelManager(endpoint: ChatEndpoint(serverURL: store, protocol: .ollama, model: ""))
    }

    /// Pulls `name`, collecting the progress; the error, if any.
    func pull(_ name: String, from manager: OllamaModelManager) async -> (progress: [OllamaPullProgress], error: (any Error)?) {
        let seen = Mutex<[OllamaPullProgress]>([])
        do {
            try await manager.pull(name) { step in seen.withLock { $0.append(step) } }
            return (seen.withLock { $0 }, nil)
        } catch {
            return (seen.withLock { $0 }, error)
        }
    }

    @Test func listsTheModelsWithSizeAndFamily() async throws {
        let models = try await manager(ollama.store()).models()
        #expect(models.map(\.name) == ["llama3.2:latest", "qwen3:0.6b"])
        let llama = try #require(models.first)
        #expect(llama.size == 2_019_393_189 && llama.family == "llama" && llama.parameterSize == "3.2B" && llama.quantization == "Q4_K_M")
        #expect(llama.summary == "2.0\u{A0}GB · llama · 3.2B · Q4_K_M")
        #expect(models[1].summary == "522.7\u{A0}MB · qwen3 · 751.63M · Q4_K_M")
    }

    @Test("A pull streams Ollama's status and the bytes of every layer into one rising fraction with a speed; the model joins the list")
    func pullProgress() async throws {
        let manager = manager(ollama.store(paceMilliseconds: 40))
        let (progress, error) = await pull("smollm2:135m", from: manager)
        #expect(error == nil)
        let statuses = progress.map(\.status)
        #expect(statuses.first == "pulling manifest")
        #expect(Array(statuses.suffix(3)) == ["verifying sha256 digest", "writing manifest", "success"])
        let layers = Set(statuses.filter { $0.hasPrefix("pulling ") && $0 != "pulling manifest" })
        #expect(layers.count == 3, "three layers, each named by its digest's start: \(layers)")
        #expect(layers.allSatisfy { $0.count == "pulling ".count + 12 })
        let fractions = progress.compactMap(\.fraction)
        #expect(fractions.count > 8)
        #expect(fractions.contains { $0 > 0.2 && $0 < 0.8 }, "the bar stands part way at some point: \(fractions)")
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "it never goes back, even as small layers join")
        let last = try #require(progress.last)
        #expect(last.fraction == 1 && last.completed == last.total && last.total > 268_435_456)
        #expect(progress.contains { ($0.bytesPerSecond ?? 0) > 0 }, "a speed once enough time has passed")
        #expect(progress.first { $0.fraction != nil && $0.fraction! > 0.1 }?.bytesText?.contains(" of ") == true)
        let pulled = try #require(try await manager.models().first { $0.name == "smollm2:135m" })
        #expect(pulled.family == "smollm" && pulled.parameterSize == "135M" && pulled.size == last.total)
    }

    @Test("Cancelling a pull closes its connection, and the model does not appear")
    func cancelClosesTheTransfer() async throws {
        let store = ollama.store(holding: true)
        let manager = manager(store)
        let started = Mutex(false)
        let pull = Task {
            try await manager.pull("gemma3:270m") { step in if step.fraction != nil { started.withLock { $0 = true } } }
        }
        #expect(try await ollama.event("held", of: "gemma3:270m", in: store), "the pull reached its gate")
        #expect(try await TestTiming.eventually { started.withLock { $0 } }, "progress arrived")
        pull.cancel()
        await #expect(throws: CancellationError.self) { try await pull.value }
        #expect(try await ollama.event("client-closed", of: "gemma3:270m", in: store, within: .seconds(5)),
                "the server saw the connection close")
        #expect(try await manager.models().map(\.name) == ["llama3.2:latest", "qwen3:0.6b"])
    }

    @Test("A held pull released goes on to success")
    func heldPullReleased() async throws {
        let store = ollama.store(holding: true)
        let manager = manager(store)
        let pull = Task { try await manager.pull("tinyllama") { _ in } }
        #expect(try await ollama.event("held", of: "tinyllama:latest", in: store))
        try await ollama.release("tinyllama:latest", in: store)
        try await pull.value
        #expect(try await manager.models().contains { $0.name == "tinyllama:latest" })
    }

    @Test("Pull errors come in Ollama's own words", arguments: [
        ("nosuch-model", OllamaModelError.ollama("pull model manifest: file does not exist")),
        ("broken:7b", OllamaModelError.ollama("max retries exceeded: unexpected EOF")),
        ("Bad name!", OllamaModelError.ollama("invalid model name")),
        ("cutoff:1b", OllamaModelError.pullEnded(model: "cutoff:1b")),
    ])
    func pullErrors(name: String, expected: OllamaModelError) async throws {
        let manager = manager(ollama.store())
        let (_, error) = await pull(name, from: manager)
        #expect(error as? OllamaModelError == expected)
        #expect(ChatError.describe(try #require(error)) == expected.errorDescription)
        #expect(try await manager.models().count == 2)
    }

    @Test("Delete removes the model; a model that is not there is a 404 in Ollama's words")
    func deleteAndItsNotFound() async throws {
        let manager = manager(ollama.store())
        try await manager.delete("qwen3:0.6b")
        #expect(try await manager.models().map(\.name) == ["llama3.2:latest"])
        await #expect(throws: OllamaModelError.ollama("model 'qwen3:0.6b' not found")) { try await manager.delete("qwen3:0.6b") }
        try await manager.delete("llama3.2")
        #expect(try await manager.models().isEmpty, "a name without a tag means :latest, as Ollama has it")
    }

    @Test func anUnreachableServerIsATransportError() async throws {
        let manager = OllamaModelManager(endpoint: ChatEndpoint(serverURL: "http://127.0.0.1:9", protocol: .ollama, model: ""))
        await #expect { try await manager.models() } throws: { error in
            guard case ChatError.transport(let url, _, _) = error else { return false }
            return url == "http://127.0.0.1:9/api/tags"
        }
        let (_, error) = await pull("x", from: manager)
        guard case ChatError.transport = try #require(error) else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }
}
