import AgentCore
import Foundation
import TestSupport
import Testing

/// Finding the model servers already running on this computer, against imitations started on
/// the very ports (and addresses) real ones use. A test whose port is taken on this machine is
/// skipped, saying so: whatever holds the port would answer in the imitation's place. One at a
/// time: they listen on the same few ports, and each looks at all of them.
@Suite("Finding servers on this computer", .serialized)
struct LocalServerDiscoveryTests {
    static func taken(_ port: Int) -> Comment {
        "port \(port) is taken on this machine (another program listens there), so no imitation can stand in for its server"
    }

    static var allCandidatePortsFree: Bool { LocalServerDiscovery.candidates.allSatisfy { LocalModelServerImitation.isFree($0.port) } }

    @Test("Ollama on 127.0.0.1:11434: found with its models", .enabled(if: LocalModelServerImitation.isFree(11434), taken(11434)))
    func ollama() async throws {
        let ollama = try LocalModelServerImitation(.ollama, port: 11434)
        defer { ollama.stop() }
        let found = await LocalServerDiscovery.discover().filter { $0.url.hasSuffix(":11434") }
        #expect(found == [FoundServer(url: "http://127.0.0.1:11434", protocol: .ollama, name: "Ollama",
                                      models: ["llama3.2:latest", "qwen3:0.6b"])])
        #expect(found.first?.title == "Ollama on this computer")
        #expect(found.first?.modelCount == "2 models")
    }

    @Test("llama-server on ::1 only, port 8080: found there, named by its answer", .enabled(if: LocalModelServerImitation.isFree(8080), taken(8080)))
    func llamaServerOnIPv6() async throws {
        let server = try LocalModelServerImitation(.llamacpp, host: "::1", port: 8080)
        defer { server.stop() }
        let found = await LocalServerDiscovery.discover().filter { $0.url.hasSuffix(":8080") }
        #expect(found == [FoundServer(url: "http://[::1]:8080", protocol: .openai, name: "llama-server",
                                      models: ["test-model", "test-model-large"])])
    }

    @Test("The same server on both addresses counts once, by its IPv4 address", .enabled(if: LocalModelServerImitation.isFree(8080), taken(8080)))
    func bothAddressesCountOnce() async throws {
        let v4 = try LocalModelServerImitation(.llamacpp, host: "127.0.0.1", port: 8080)
        defer { v4.stop() }
        let v6 = try LocalModelServerImitation(.llamacpp, host: "::1", port: 8080)
        defer { v6.stop() }
        let found = await LocalServerDiscovery.discover().filter { $0.url.hasSuffix(":8080") }
        #expect(found.map(\.url) == ["http://127.0.0.1:8080"])
    }

    @Test("LM Studio on 1234 and vLLM on 8000, named by what their listing says",
          .enabled(if: LocalModelServerImitation.isFree(1234), taken(1234)), .enabled(if: LocalModelServerImitation.isFree(8000), taken(8000)))
    func lmStudioAndVLLM() async throws {
        let lmStudio = try LocalModelServerImitation(.lmstudio, port: 1234)
        defer { lmStudio.stop() }
        let vllm = try LocalModelServerImitation(.vllm, host: "::1", port: 8000)
        defer { vllm.stop() }
        let found = await LocalServerDiscovery.discover().filter { $0.url.hasSuffix(":1234") || $0.url.hasSuffix(":8000") }
        #expect(found.map(\.name) == ["LM Studio", "vLLM"])
        #expect(found.map(\.url) == ["http://127.0.0.1:1234", "http://[::1]:8000"])
        #expect(found.allSatisfy { $0.protocolKind == .openai })
    }

    @Test("Nothing listening: nothing found", .enabled(if: allCandidatePortsFree, "one of the ports 11434, 8080, 1234, 8000, 5000, 5001 is taken on this machine"))
    func nothingListening() async {
        #expect(await LocalServerDiscovery.discover() == [])
    }

    @Test("Nothing listening on the ports asked: nothing found, at once")
    func nothingOnTheGivenPorts() async {
        let candidates = [LocalModelServerImitation.unusedPort(), LocalModelServerImitation.unusedPort()].map {
            LocalServerDiscovery.Candidate(port: $0, protocol: .openai, name: "Test")
        }
        let started = ContinuousClock.now
        #expect(await LocalServerDiscovery.discover(candidates) == [])
        #expect(ContinuousClock.now - started < .seconds(1) * TestTiming.scale, "a refused connection is an answer")
    }

    @Test("A server answering garbage or stalling is not offered, and does not hold the others past the default time-out of 1.5 s")
    func garbageAndStalls() async throws {
        let garbage = try LocalModelServerImitation(.garbage)
        defer { garbage.stop() }
        let stall = try LocalModelServerImitation(.stall)
        defer { stall.stop() }
        let ollama = try LocalModelServerImitation(.ollama)
        defer { ollama.stop() }
        let candidates = [LocalServerDiscovery.Candidate(port: garbage.port, protocol: .openai, name: "Garbage"),
                          LocalServerDiscovery.Candidate(port: garbage.port, protocol: .ollama, name: "Garbage"),
                          LocalServerDiscovery.Candidate(port: stall.port, protocol: .openai, name: "Stall"),
                          LocalServerDiscovery.Candidate(port: ollama.port, protocol: .ollama, name: "Ollama")]
        let started = ContinuousClock.now
        let found = await LocalServerDiscovery.discover(candidates)
        let elapsed = ContinuousClock.now - started
        #expect(found.map(\.url) == [ollama.url])
        #expect(elapsed >= .milliseconds(1400), "the stalled server was waited for until the time-out")
        // The stalled server never answers: only the time-out ends its probe (a loaded machine
        // may take seconds more to notice, so the bound is loose but finite).
        #expect(elapsed < .seconds(15), "and the time-out ended it: \(elapsed)")
    }

    @Test("A redirect is not followed: the question goes to no other address or port")
    func redirectsAreNotFollowed() async throws {
        let elsewhere = try LocalModelServerImitation(.llamacpp)
        defer { elsewhere.stop() }
        let redirect = try LocalModelServerImitation(.redirect(location: elsewhere.url))
        defer { redirect.stop() }
        #expect(await LocalServerDiscovery.discover([LocalServerDiscovery.Candidate(port: elsewhere.port, protocol: .openai, name: "T")])
            .count == 1, "the server redirected to answers when asked itself")
        #expect(await LocalServerDiscovery.discover([LocalServerDiscovery.Candidate(port: redirect.port, protocol: .openai, name: "T")]) == [])
    }

    @Test("A server already added as a profile is known by its port, however its address is written")
    func addedProfiles() {
        let found = FoundServer(url: "http://127.0.0.1:11434", protocol: .ollama, name: "Ollama", models: ["llama3.2:latest"])
        for url in ["http://localhost:11434", "http://127.0.0.1:11434/", "http://[::1]:11434"] {
            #expect(found.isAdded(as: ServerProfile(name: "Mine", url: url, protocol: .ollama, model: "x")), "\(url)")
        }
        for (url, kind) in [("http://192.168.1.2:11434", ChatProtocol.ollama), ("https://localhost:11434", .ollama),
                            ("http://localhost:8080", .ollama), ("http://localhost:11434", .openai)] {
            #expect(!found.isAdded(as: ServerProfile(name: "Other", url: url, protocol: kind, model: "x")), "\(url)")
        }
        let profile = found.profile()
        #expect(profile.url == found.url && profile.protocolKind == .ollama && profile.model == "llama3.2:latest")
        #expect(profile.name == "Ollama on this computer")
    }

    /// `agent-cli --discover` and `--list-models`, as a script uses them.
    @Suite("agent-cli --discover and --list-models")
    struct CLI {
        let server = TestServer.shared

        @Test("--discover: one line per server, URL, protocol and models tab apart",
              .enabled(if: LocalModelServerImitation.isFree(11434), LocalServerDiscoveryTests.taken(11434)))
        func discover() async throws {
            let ollama = try LocalModelServerImitation(.ollama, port: 11434)
            defer { ollama.stop() }
            // A proxy in the environment (one that does not exist) is not asked: the probes go
            // straight to this computer's ports.
            let proxy = "http://192.0.2.1:3128"
            let result = try await ProductRunner.run("agent-cli", ["--discover"],
                                                     environment: ["http_proxy": proxy, "HTTP_PROXY": proxy, "no_proxy": "", "NO_PROXY": ""])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("http://127.0.0.1:11434") }
            #expect(lines == ["http://127.0.0.1:11434\tollama\tllama3.2:latest,qwen3:0.6b"])
        }

        @Test("--discover with nothing running: nothing printed, status 0",
              .enabled(if: LocalServerDiscoveryTests.allCandidatePortsFree, "one of the ports 11434, 8080, 1234, 8000, 5000, 5001 is taken on this machine"))
        func discoverNothing() async throws {
            let result = try await ProductRunner.run("agent-cli", ["--discover"])
            #expect(result.status == 0)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
        }

        @Test("--list-models: the server's models, one a line, for either protocol")
        func listModels() async throws {
            let openai = try await ProductRunner.run("agent-cli", ["--list-models", "--server", server.url("echo")])
            #expect(openai.status == 0, "\(openai.stderr)")
            #expect(openai.stdout == "test-model\ntest-model-large\n")
            let ollama = try await ProductRunner.run("agent-cli", ["--list-models", "--server", server.url("ollama"), "--protocol", "ollama"])
            #expect(ollama.status == 0, "\(ollama.stderr)")
            #expect(ollama.stdout == "llama3.2:latest\nqwen3:0.6b\n")
        }

        @Test("--list-models without --server: the local runtime's installed models")
        func listLocalModels() async throws {
            let runtime = LocalRuntime.defaultDirectory
            let installed = try #require(try? LocalRuntime.locate(in: runtime), "the test runtime is installed (scripts/install-runtime)")
            let result = try await ProductRunner.run("agent-cli", ["--list-models"], environment: ["AGENT_RUNTIME_DIR": runtime.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == LocalModel.all.filter(installed.has).map { $0.displayName + "\n" }.joined())
            #expect(result.stdout.contains("SmolLM2-135M-Instruct\n"))
        }

        @Test("Without AGENT_RUNTIME_DIR the runtime is looked for in $XDG_DATA_HOME/<app id>/runtime")
        func runtimeInTheDataFolder() async throws {
            let data = TemporaryFolder("runtime-data").url
            defer { try? FileManager.default.removeItem(at: data) }
            try await Self.expectRuntimeLookedFor(in: data.appending(path: "\(AppIdentity.applicationID)/runtime"),
                                                  environment: ["AGENT_RUNTIME_DIR": "", "XDG_DATA_HOME": data.path])
        }

        @Test("Without $XDG_DATA_HOME either the runtime is looked for in ~/.local/share/<app id>/runtime")
        func runtimeInTheHome() async throws {
            let home = PrivateHome("runtime-home")
            defer { home.remove() }
            try await Self.expectRuntimeLookedFor(in: home.folder.appending(path: ".local/share/\(AppIdentity.applicationID)/runtime"),
                                                  environment: home.homeEnvironment.merging(["AGENT_RUNTIME_DIR": ""]) { $1 })
        }

        /// `agent-cli --list-models` with `environment`: says it looked in `folder` while
        /// nothing is there, and lists the test runtime's models once it is linked there.
        private static func expectRuntimeLookedFor(in folder: URL, environment: [String: String],
                                                   sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let installed = LocalRuntime.defaultDirectory
            _ = try #require(try? LocalRuntime.locate(in: installed), "the test runtime is installed (scripts/install-runtime)",
                             sourceLocation: sourceLocation)
            let missing = try await ProductRunner.run("agent-cli", ["--list-models"], environment: environment)
            #expect(missing.status == 1, sourceLocation: sourceLocation)
            #expect(missing.stderr.contains("looked in \(folder.path)"), "\(missing.stderr)", sourceLocation: sourceLocation)
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: installed)
            let found = try await ProductRunner.run("agent-cli", ["--list-models"], environment: environment)
            #expect(found.status == 0, "\(found.stderr)", sourceLocation: sourceLocation)
            #expect(found.stdout.contains("SmolLM2-135M-Instruct\n"), sourceLocation: sourceLocation)
        }

        @Test("--list-models failures: status 1, the reason on stderr, nothing on stdout")
        func listModelsFailures() async throws {
            let refused = try await ProductRunner.run("agent-cli", ["--list-models", "--server", "http://127.0.0.1:9"])
            #expect(refused.status == 1)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.contains("127.0.0.1:9"))
            let refusedKey = try await ProductRunner.run("agent-cli", ["--list-models", "--server", server.url("auth")])
            #expect(refusedKey.status == 1)
            #expect(refusedKey.stderr.contains("Invalid API key"), "the server's own words: \(refusedKey.stderr)")
            let noRuntime = FileManager.default.temporaryDirectory.appending(path: "no-runtime-\(UUID())")
            let local = try await ProductRunner.run("agent-cli", ["--list-models"], environment: ["AGENT_RUNTIME_DIR": noRuntime.path])
            #expect(local.status == 1)
            #expect(local.stderr.contains("not installed"))
        }
    }
}
