@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// A GGUF file of the user's own run by the real llama-server, its context and budget taken
/// from `/props`, and the settings that remember the files and the threads.
@MainActor
@Suite("Local model files and context from /props (real llama-server)", .serialized)
struct LocalModelFileTests {
    static func gemmaFile() throws -> URL {
        try #require(try LocalRuntime.locate().modelFiles["gemma3"], "the test runtime has Gemma 3 270M")
    }

    @Test("A GGUF file (Gemma 3 270M) runs with its own context, capped; /props gives the budget: context − longest reply − margin")
    func aChosenFileAnswers() async throws {
        let file = try Self.gemmaFile()
        let server = LocalModelServer(model: .file(file))
        defer { server.stop() }
        let endpoint = try await server.endpoint()
        #expect(endpoint.model == file.deletingPathExtension().lastPathComponent)
        let props = try #require(server.props)
        #expect(props.modelPath == file.path, "llama-server runs the chosen file")
        #expect(props.contextSize == LocalModelServer.contextCap, "Gemma 3 is trained for 32k; Agent caps it at 16k")
        #expect(server.longestReply == 1024)
        #expect(server.contextBudget(maxTokens: nil) == 16384 - 1024 - 2048)
        #expect(server.contextBudget(maxTokens: 100) == 16384 - 100 - 2048, "a shorter reply limit leaves more room")
        let arguments = try Self.commandLine(of: try #require(server.pid))
        #expect(!arguments.contains("--chat-template-file"), "the file's own template (llama-server's default without one)")

        let client = OpenAIChatClient(endpoint: endpoint, options: GenerationOptions(temperature: 0, seed: 3, maxTokens: 24))
        var text = ""
        for try await event in client.replyEvents(to: [ChatMessage(role: .user, text: "Hello! Who are you?", state: .done)]) {
            if case .text(let piece) = event { text += piece }
        }
        #expect(!text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    /// The server is given a 2k context behind Agent's back (so that a CPU reads the prompt
    /// in seconds): what counts is what `/props` says, not what Agent asked for.
    @Test("A long chat is trimmed to the budget /props gives (the server's context − reply − margin), not the user's setting")
    func longChatTrimmedToTheServersBudget() async throws {
        let server = LocalModelServer(extraArguments: ["--ctx-size", "2048"])
        let connection = ChatConnection(localServer: server, options: GenerationOptions(temperature: 0, seed: 1, maxTokens: 16))
        defer { connection.shutdown() }
        let model = ChatViewModel(connection: connection)
        model.contextBudget = 1_000_000
        #expect(model.requestBudget == 1_000_000, "before the server is up, the setting")
        let words = ["harbour", "lantern", "orchard", "meadow", "granite", "willow", "copper", "thistle"]
        var history: [ChatMessage] = []
        for turn in 0..<40 {
            let text = (0..<200).map { words[($0 * 7 + turn) % words.count] }.joined(separator: " ")
            history.append(ChatMessage(role: .user, text: "Note \(turn): \(text)", state: .done))
            history.append(ChatMessage(role: .assistant, text: "Noted \(turn).", state: .done))
        }
        let estimated = history.reduce(0) { $0 + ContextWindow.estimatedTokens($1) }
        #expect(estimated > 8192, "the chat is longer than the model's trained context: \(estimated)")
        model.conversation = Conversation(messages: history)
        model.draft = "Say OK."
        model.send()
        await model.waitUntilIdle()
        #expect(!model.status.showError, "\(model.status.errorMessage)")
        let props = try #require(connection.localServerProps)
        #expect(props.contextSize == 2048)
        #expect(model.requestBudget == 2048 - 16 - 256, "the context less the reply's 16 tokens and the margin")
        let reply = try #require(model.conversation.messages.last)
        #expect(reply.state == .done)
        let prompt = try #require(reply.usage?.promptTokens)
        #expect(prompt > 800, "the budget was used (real tokens run below the estimate of four bytes each): \(prompt)")
        #expect(prompt <= 2048 - 16, "room was left for the reply: \(prompt)")
    }

    @Test("A remembered file that was deleted: starting it says it has gone and where to choose another")
    func aMissingFile() async throws {
        let server = LocalModelServer(model: .file(URL(filePath: "/nonexistent/models/gone.gguf")))
        do {
            _ = try await server.endpoint()
            Issue.record("a missing file started")
        } catch {
            let message = ChatError.describe(error)
            #expect(message.contains("“gone.gguf” is no longer at /nonexistent/models/gone.gguf"), "\(message)")
            #expect(message.contains("Preferences › Models"))
        }
        #expect(server.pid == nil)
    }

    @Test("A file named .gguf that is not GGUF is refused before llama-server starts")
    func notAModel() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "agent-\(UUID().uuidString).gguf")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try await LocalModelServer(model: .file(file)).endpoint()
            Issue.record("a text file started")
        } catch {
            #expect(ChatError.describe(error).contains("is not a GGUF model file"), "\(ChatError.describe(error))")
        }
    }

    @Test("Threads default to every core (the setting overrides); the built-in SmolLM2 starts with them and its trained 8k context")
    func threads() async throws {
        let settings = try TestTools.settings()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(settings.localThreads == cores)
        settings.localThreads = 1
        #expect(settings.localThreads == 1)
        settings.localThreads = 0
        #expect(settings.localThreads == cores)

        let server = LocalModelServer()
        defer { server.stop() }
        #expect(server.threads == cores)
        _ = try await server.endpoint()
        let arguments = try Self.commandLine(of: try #require(server.pid))
        let index = try #require(arguments.firstIndex(of: "--threads"))
        #expect(arguments[index + 1] == String(cores))
        #expect(server.props?.contextSize == 8192)
        #expect(server.props?.chatTemplate.contains("<|im_start|>") == true, "the file's own (ChatML) template")
        #expect(server.contextBudget(maxTokens: nil) == 8192 - 1024 - 1024)
    }

    @Test("The settings keep a file as the local model and list it after the installed built-ins")
    func settingsRememberFiles() throws {
        let settings = try TestTools.settings()
        let file = try Self.gemmaFile()
        #expect(settings.localModel == .smolLM2)
        settings.localModelFiles = [file, URL(filePath: "/nonexistent/gone.gguf")]
        settings.localModel = .file(file)
        #expect(settings.localModel == .file(file))
        #expect(settings.localModel.displayName == "gemma-3-270m-q4_k_m")
        #expect(settings.localModelChoices.map(\.id) == ["smollm2", "gemma3", file.path, "/nonexistent/gone.gguf"])
        settings.root.set("local-model", "no-such-model")
        #expect(settings.localModel == .smolLM2, "an unknown name falls back to the default")
    }

    static func commandLine(of pid: pid_t) throws -> [String] {
        let data = try Data(contentsOf: URL(filePath: "/proc/\(pid)/cmdline"))
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
