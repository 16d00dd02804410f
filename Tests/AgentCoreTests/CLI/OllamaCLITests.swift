import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli --pull NAME` and `--delete NAME` against the scripted Ollama: progress with a
/// percentage on stderr, errors in Ollama's words with exit status 1, Ctrl+C with 130.
@Suite("agent-cli and Ollama's models")
struct OllamaCLITests {
    let ollama = OllamaTestServer.shared

    func models(in store: String) async throws -> [String] {
        try await OllamaModelManager(endpoint: ChatEndpoint(serverURL: store, protocol: .ollama, model: "")).models().map(\.name)
    }

    @Test("--pull prints Ollama's status with a rising percentage on stderr; the model joins the server's list")
    func pullShowsProgress() async throws {
        let store = ollama.store()
        let result = try await ProductRunner.run("agent-cli", ["--server", store, "--pull", "smollm2:135m"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        // Sizes come from GLib, with a no-break space before the unit.
        let lines = result.stderr.split(separator: "\n").map { $0.replacing("\u{A0}", with: " ") }
        #expect(lines.first == "pulling manifest")
        #expect(lines.last == "agent-cli: pulled smollm2:135m")
        #expect(lines.contains { $0.range(of: #"^pulling [0-9a-f]{12}  50%  136\.\d MB of 272\.\d MB"#, options: .regularExpression) != nil },
                "\(lines)")
        let percents = lines.compactMap { line in line.firstMatch(of: /\ \ (\d+)%/).flatMap { Int($0.1) } }
        #expect(percents.count >= 8 && percents.last == 100)
        #expect(percents == percents.sorted(), "the percentage only rises: \(percents)")
        #expect(lines.contains("verifying sha256 digest  100%  272.7 MB of 272.7 MB"))
        #expect(try await models(in: store).contains("smollm2:135m"))
    }

    @Test("Failures exit 1 with Ollama's own words on stderr", arguments: [
        (["--pull", "nosuch"], "agent-cli: error: pull model manifest: file does not exist"),
        (["--pull", "broken:1b"], "agent-cli: error: max retries exceeded: unexpected EOF"),
        (["--pull", "Bad name!"], "agent-cli: error: invalid model name"),
        (["--delete", "missing:7b"], "agent-cli: error: model 'missing:7b' not found"),
    ])
    func failures(arguments: [String], message: String) async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", ollama.store()] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix(message + "\n"), "\(result.stderr)")
    }

    @Test func deleteRemovesTheModel() async throws {
        let store = ollama.store()
        let result = try await ProductRunner.run("agent-cli", ["--server", store, "--delete", "qwen3:0.6b"])
        #expect(result.status == 0)
        #expect(result.stderr == "agent-cli: deleted qwen3:0.6b\n")
        #expect(try await models(in: store) == ["llama3.2:latest"])
    }

    @Test("Ctrl+C stops the pull: the connection closes, exit 130")
    func interrupt() async throws {
        let store = ollama.store(holding: true)
        let (process, _, error) = try ProductRunner.start("agent-cli", ["--server", store, "--pull", "gemma3:270m"])
        #expect(try await ollama.event("held", of: "gemma3:270m", in: store))
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: await ProductRunner.readToEnd(error.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(stderr.contains("50%") && stderr.hasSuffix("agent-cli: interrupted; the pull of gemma3:270m stopped\n"))
        #expect(try await ollama.event("client-closed", of: "gemma3:270m", in: store, within: .seconds(5)))
        #expect(try await models(in: store).count == 2)
    }

    @Test("Usage errors exit 2", arguments: [
        (["--pull", "x", "a prompt"], "--pull and --delete take no prompt"),
        (["--pull", "x", "--delete", "y"], "give --pull or --delete, not both"),
        (["--pull", "x", "--protocol", "llmtools"], "--pull and --delete manage an Ollama server's models"),
        (["--pull"], "option --pull needs a value"),
    ])
    func usage(arguments: [String], message: String) async throws {
        let result = try await ProductRunner.run("agent-cli", arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message))
    }

    @Test func anUnreachableServerIsNamed() async throws {
        let result = try await ProductRunner.run("agent-cli", ["--server", "http://127.0.0.1:9", "--pull", "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Could not get a reply from http://127.0.0.1:9/api/pull"))
    }

    @Test("--protocol openai still pulls and deletes through Ollama's API")
    func ollamaWhateverTheProtocol() async throws {
        let store = ollama.store()
        let pulled = try await ProductRunner.run("agent-cli", ["--server", store, "--protocol", "openai", "--pull", "smollm2:135m"])
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let deleted = try await ProductRunner.run("agent-cli", ["--server", store, "--protocol", "openai", "--delete", "qwen3:0.6b"])
        #expect(deleted.status == 0 && deleted.stderr == "agent-cli: deleted qwen3:0.6b\n", "\(deleted.stderr)")
        #expect(Set(try await models(in: store)) == ["llama3.2:latest", "smollm2:135m"])
    }
}

extension LocalServerDiscoveryTests {
    /// In the discovery suite, one test at a time: it listens on Ollama's own port, where the
    /// discovery tests look.
    @Suite("agent-cli's Ollama commands without --server")
    struct OllamaDefaultServer {
        @Test("Without --server, --pull and --delete go to http://127.0.0.1:11434, where Ollama listens")
        func defaultServer() async throws {
            // A scripted Ollama of its own on Ollama's port, its requests without a store's path
            // going to a store of this test's (11434 taken makes this fail, never pass untested).
            let store = "p5-\(uniqueMarker())"
            let server = try ServerScript("ollama_scripted_server.py", ["11434", store])
            defer { server.stop() }
            #expect(server.fields == ["PORT", "11434"], "the scripted Ollama listens on 11434: \(server.fields)")
            let pulled = try await ProductRunner.run("agent-cli", ["--pull", "smollm2:135m"])
            #expect(pulled.status == 0 && pulled.stderr.hasSuffix("agent-cli: pulled smollm2:135m\n"), "\(pulled.stderr)")
            let deleted = try await ProductRunner.run("agent-cli", ["--delete", "llama3.2:latest"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(Set(try await OllamaCLITests().models(in: "http://127.0.0.1:11434")) == ["qwen3:0.6b", "smollm2:135m"])
        }
    }
}
