@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// The embedded default: a real llama-server with SmolLM2-135M-Instruct, started by the
/// tests from the runtime `scripts/install-runtime` installs (as CI does).
@MainActor
@Suite("Local model server (real llama-server)", .serialized)
struct LocalModelServerTests {
    @Test func startsAnswersAndStops() async throws {
        let server = LocalModelServer()
        let endpoint = try await server.endpoint()
        #expect(endpoint.serverURL.hasPrefix("http://127.0.0.1:"))
        #expect(endpoint.model == "SmolLM2-135M-Instruct")
        let pid = try #require(server.pid)
        #expect(kill(pid, 0) == 0)

        let health = try await HTTPClient.fetch(HTTPRequest(url: endpoint.serverURL + "/health"))
        #expect(health.head.status == 200)
        let log = try FileManager.default.attributesOfItem(atPath: server.logFile.path)
        #expect(log[.posixPermissions] as? Int == 0o600, "its log is the user's alone")
        #expect(try String(contentsOf: server.logFile, encoding: .utf8).contains(LocalModelProcess.readyLine),
                "its output reached the log as it came")

        let again = try await server.endpoint()
        #expect(again == endpoint, "a running server is reused")
        #expect(server.pid == pid)

        await server.stopAndWait()
        #expect(server.pid == nil)
        #expect(kill(pid, 0) != 0, "the process is gone and reaped")
    }

    @Test("llama-server inherits nothing the app has open (a leaked pipe end would keep another child's output open)")
    func inheritsNoDescriptors() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0, "a pipe without close-on-exec, as any library may make")
        defer { ends.forEach { close($0) } }
        let server = LocalModelServer()
        defer { server.stop() }
        _ = try await server.endpoint()
        let pid = try #require(server.pid)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        let pipeTarget = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[1])")
        let childTargets = descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
        #expect(!childTargets.contains(pipeTarget), "the pipe \(pipeTarget) leaked into llama-server: \(childTargets)")
    }

    @Test("The server outlives the thread that started it (PR_SET_PDEATHSIG fires per thread)")
    func survivesIdleThreads() async throws {
        let server = LocalModelServer()
        defer { server.stop() }
        let endpoint = try await server.endpoint()
        let pid = try #require(server.pid)
        // libdispatch retires a worker thread after about 5 s idle; the main actor of a
        // command-line program runs on such threads after its first suspension.
        try await Task.sleep(for: .seconds(7))
        #expect(!Self.isZombie(pid) && kill(pid, 0) == 0, "llama-server was killed with the thread that spawned it")
        let health = try await HTTPClient.fetch(HTTPRequest(url: endpoint.serverURL + "/health"))
        #expect(health.head.status == 200)
    }

    @Test func theClientStreamsARealReply() async throws {
        let server = LocalModelServer()
        defer { server.stop() }
        let client = OpenAIChatClient(endpoint: try await server.endpoint(),
                                      options: GenerationOptions(temperature: 0, seed: 42, maxTokens: 48))
        var text = ""
        var events: [ReplyEvent] = []
        for try await event in client.replyEvents(to: [ChatMessage(role: .user, text: "What is the capital of France?", state: .done)]) {
            events.append(event)
            if case .text(let piece) = event { text += piece }
        }
        #expect(events.first == .started(model: "SmolLM2-135M-Instruct", created: events.first.flatMap {
            if case .started(_, let created) = $0 { created } else { nil }
        }))
        #expect(text.count > 3)
        #expect(events.filter { if case .text = $0 { true } else { false } }.count > 1, "streamed in pieces")
        #expect(events.contains { if case .finished = $0 { true } else { false } })
        let usage = try #require(events.compactMap { if case .usage(let usage) = $0 { usage } else { nil } }.last,
                                 "llama-server reports token counts")
        #expect((usage.completionTokens ?? 0) > 1 && (usage.completionTokens ?? 0) <= 48)
        #expect((usage.promptTokens ?? 0) > 5)
        #expect((usage.tokensPerSecond ?? 0) > 0, "and the time it took")
    }

    @Test("The view model keeps context with the real model across turns")
    func viewModelWithTheLocalModel() async throws {
        let connection = ChatConnection(localServer: LocalModelServer(),
                                        options: GenerationOptions(temperature: 0, seed: 1, maxTokens: 32))
        defer { connection.shutdown() }
        let model = ChatViewModel(connection: connection)
        var statuses: [ChatStatus.Connection] = []
        model.observe { if $0 == .status { statuses.append(model.status.connection) } }
        model.prepare()
        #expect(model.status.connection == .starting)
        for prompt in ["My name is Ada.", "What is my name?"] {
            model.draft = prompt
            model.send()
            await model.waitUntilIdle()
            #expect(!model.status.showError, "\(model.status.errorMessage)")
        }
        #expect(statuses.first == .starting && statuses.contains(.ready))
        #expect(model.conversation.messages.map(\.state) == [.done, .done, .done, .done])
        #expect(model.conversation.messages.map(\.role) == [.user, .assistant, .user, .assistant])
        #expect(model.conversation.messages.allSatisfy { !$0.text.isEmpty })
        #expect(model.conversation[3].model == "SmolLM2-135M-Instruct")
    }

    @Test("llama-server killed mid-reply (SIGKILL, or SIGILL as a build for another processor dies): the reply so far is kept and cut off, the crash is named, the next send restarts it",
          arguments: [(SIGKILL, "stopped while answering: it was killed by signal 9"),
                      (SIGILL, "stopped while answering, at an instruction this processor does not run (signal 4). The reply so far is kept. Build it again for this computer with: \(LocalRuntime.installCommand)")])
    func localServerCrashMidReply(signal: Int32, named: String) async throws {
        // SIGILL dumps core: llama-server, started below, inherits a limit that leaves none
        // behind; the test process's own limit is put back after.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
        let before = limit
        defer { withUnsafePointer(to: before) { _ = setrlimit(Int32(RLIMIT_CORE.rawValue), $0) } }
        limit.rlim_cur = 0
        if signal == SIGILL { setrlimit(Int32(RLIMIT_CORE.rawValue), &limit) }
        let server = LocalModelServer()
        let connection = ChatConnection(localServer: server, options: LongLocalReply.options)
        defer { connection.shutdown() }
        let model = ChatViewModel(connection: connection)
        var killed: pid_t?
        model.observe { change in
            guard killed == nil, case .messageChanged(let index) = change, index == 1,
                  !model.conversation[1].text.isEmpty, let pid = server.pid else { return }
            kill(pid, signal)
            killed = pid
        }
        model.draft = LongLocalReply.prompt
        model.send()
        await model.waitUntilIdle()
        let first = try #require(killed, "the reply started streaming")
        let reply = model.conversation[1]
        #expect(!reply.text.isEmpty && reply.state == .cutOff, "\(reply.state)")
        #expect(model.conversation[0].state == .done)
        #expect(model.status.showError)
        #expect(model.status.errorMessage.contains("The local model (llama-server) \(named)"), "\(model.status.errorMessage)")
        #expect(model.status.errorMessage.contains("llama-server.log"))

        model.status.dismissError()
        model.draft = "Say hello."
        model.send()
        await model.waitUntilIdle()
        #expect(!model.status.showError, "\(model.status.errorMessage)")
        #expect(model.conversation.messages.last?.state == .done)
        let second = try #require(server.pid)
        #expect(second != first, "a new server answered")
    }

    @Test("Gemma 3 270M with a tool-capable template calls get_location, and the result goes back to it")
    func gemmaToolRoundTrip() async throws {
        let server = LocalModelServer(model: .gemma3)
        defer { server.stop() }
        let endpoint = try await server.endpoint()
        let client = OpenAIChatClient(endpoint: endpoint, options: GenerationOptions(temperature: 0, seed: 7, maxTokens: 48))
        let recording = RecordingBackend(client)
        let location = LocationTool(settings: try TestTools.settings(), source: nil,
                                    fixedLocation: TestTools.paris) { .deny }
        let turn = ChatTurn(backend: recording, toolbox: Toolbox([location]), maximumRounds: 2)
        let recorder = TurnRecorder()
        do {
            try await turn.run(context: [ChatMessage(role: .user, text: "Call get_location.", state: .done)]) { recorder.record($0) }
        } catch ChatError.toolRoundLimit {
            // A base model may call the tool again after its result; the round trip still happened.
        }
        let calls = recorder.finishedCalls
        #expect(calls.first?.name == "get_location")
        #expect(calls.first?.result == "latitude: 48.8566, longitude: 2.3522")
        let rounds = recording.rounds
        #expect(rounds.count == 2, "the result was sent back in a second request")
        let sentBack = rounds.last?.messages.last?.toolCalls ?? []
        #expect(sentBack.contains { $0.name == "get_location" && $0.result == "latitude: 48.8566, longitude: 2.3522" })
        #expect(rounds.first?.tools.map(\.name) == ["get_location"])
    }

    @Test("A connection switched away while the local model loads: its start is given up, and nothing about it reaches the user")
    func switchedAwayWhileLoading() async throws {
        let before = Self.llamaServers()
        let model = ChatViewModel(connection: ChatConnection(localServer: LocalModelServer()))
        model.prepare()
        #expect(model.status.connection == .starting)
        let mine = { Self.llamaServers().subtracting(before).filter { Self.parent(of: $0) == getpid() } }
        try await waitFor(timeout: .seconds(10)) { !mine().isEmpty }
        // llama-server is now loading its model; the user picks a server in Preferences.
        model.use(ChatConnection(endpoint: ChatEndpoint(serverURL: TestServer.shared.url("echo"), model: "remote")))
        try await waitFor(timeout: .seconds(10)) { mine().isEmpty }
        // The abandoned start has ended; what it says must reach no one.
        try await Task.sleep(for: .milliseconds(300))
        #expect(!model.status.showError, "\(model.status.errorMessage)")
        #expect(model.status.connection == .ready)
        model.draft = "hello"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.last?.text == "Echo: hello (1 messages)")
    }

    @Test("Stop while the local model is still starting: the reply ends at once, the start goes on — one server, not two")
    func stopWhileStarting() async throws {
        let before = Self.llamaServers()
        let mine = { Self.llamaServers().subtracting(before).filter { Self.parent(of: $0) == getpid() } }
        let server = LocalModelServer()
        let connection = ChatConnection(localServer: server)
        let model = ChatViewModel(connection: connection)
        model.draft = "hello"
        model.send()
        model.stop()
        await model.waitUntilIdle()
        #expect(!model.isSending)
        #expect(model.conversation.messages.map(\.state) == [.done], "stopped before a word: the empty reply is gone")
        #expect(!model.status.showError)
        // Asked again while the first start is still loading: it joins that start.
        model.draft = "hello again"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation.messages.last?.state == .done, "\(model.status.errorMessage)")
        #expect(mine().count == 1, "one llama-server: \(mine())")
        #expect(server.pid.map { mine().contains($0) } == true)
        await connection.shutdownAndWait()
        try await waitFor(timeout: .seconds(10)) { mine().isEmpty }
    }

    func waitFor(timeout: Duration, _ condition: () -> Bool) async throws {
        try #require(try await TestTiming.eventually(within: timeout, condition))
    }

    @Test func aMissingRuntimeNamesTheInstallCommand() async {
        let server = LocalModelServer(runtimeDirectory: URL(filePath: "/nonexistent/runtime"))
        do {
            _ = try await server.endpoint()
            Issue.record("expected an error")
        } catch {
            let message = (error as? ChatError)?.errorDescription ?? ""
            #expect(message.contains(LocalRuntime.installCommand))
            #expect(message.contains("/nonexistent/runtime"))
        }
    }

    @Test("A llama-server that dies on an instruction this processor lacks (SIGILL) while starting: the error says to build it again, with the command")
    func anIllegalInstructionNamesTheInstallCommand() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "agent-sigill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let executable = directory.appending(path: "llama-server")
        try ExecutableScript.write("#!/bin/sh\nulimit -c 0\necho 'load_model: loading model'\nkill -ILL $$\n", to: executable)
        let model = directory.appending(path: "model.gguf")
        try Data(Array("GGUF".utf8) + [3, 0, 0, 0] + [UInt8](repeating: 0, count: 16)).write(to: model)  // version 3, no tensors, no keys
        try Data(#"{"llama_server": "\#(executable.path)", "models": {"smollm2": "\#(model.path)"}}"#.utf8)
            .write(to: directory.appending(path: "manifest.json"))
        let server = LocalModelServer(runtimeDirectory: directory)
        await #expect {
            _ = try await server.endpoint()
        } throws: { error in
            let message = (error as? ChatError)?.errorDescription ?? ""
            return message.contains("does not run (signal 4)") && message.contains("with: \(LocalRuntime.installCommand)")
                && message.contains("load_model: loading model")
        }
    }

    @Test("agent-cli without --server runs the local model and leaves no process behind")
    func cliUsesTheLocalModel() async throws {
        let before = Self.llamaServers()
        let result = try await ProductRunner.run("agent-cli", ["Say hello."])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).count > 1)
        #expect(result.stderr.contains("SmolLM2-135M-Instruct"))
        // Another test in this process (the window's, under `scripts/sanitize`) may be running
        // a llama-server of its own: only one that is not this process's child is a leftover.
        #expect(Self.llamaServers().subtracting(before).filter { Self.parent(of: $0) != getpid() }.isEmpty)
    }

    @Test("agent-cli whose llama-server is killed mid-reply: what arrived is printed, the crash is named, exit 1")
    func cliReportsALocalModelCrash() async throws {
        let (process, output, error) = try ProductRunner.start("agent-cli", LongLocalReply.cliArguments)
        let first = await ProductRunner.nextData(output.fileHandleForReading)
        #expect(!first.isEmpty, "the reply started")
        let child = try #require(Self.llamaServers().first { Self.parent(of: $0) == process.processIdentifier })
        kill(child, SIGKILL)
        let rest = await ProductRunner.readToEnd(output.fileHandleForReading)
        let stderr = String(decoding: await ProductRunner.readToEnd(error.fileHandleForReading), as: UTF8.self)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("The local model (llama-server) stopped while answering: it was killed by signal 9"), "\(stderr)")
        #expect(!String(decoding: first + rest, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("kill -9 of agent-cli takes its llama-server with it")
    func noOrphanAfterKill() async throws {
        let (process, output, _) = try ProductRunner.start("agent-cli", ["Write a long story about a lighthouse keeper."])
        // The first words mean the server is up and answering.
        _ = await ProductRunner.nextData(output.fileHandleForReading)
        let children = Self.llamaServers().filter { Self.parent(of: $0) == process.processIdentifier }
        let child = try #require(children.first)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try await TestTiming.eventually(within: .seconds(3)) { kill(child, 0) != 0 || Self.isZombie(child) },
                "llama-server \(child) outlived its parent")
    }

    static func llamaServers() -> Set<pid_t> {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return Set(entries.compactMap { entry in
            guard let pid = pid_t(entry),
                  let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                  name.hasPrefix("llama-server"), !isZombie(pid) else { return nil }
            return pid
        })
    }

    static func status(of pid: pid_t) -> [String: String] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    static func parent(of pid: pid_t) -> pid_t? { status(of: pid)["PPid"].flatMap { pid_t($0) } }
    static func isZombie(_ pid: pid_t) -> Bool { status(of: pid)["State"]?.hasPrefix("Z") == true }
}
