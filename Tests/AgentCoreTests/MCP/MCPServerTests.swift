import AgentCore
import Foundation
import Synchronization
import Testing
import TestSupport

/// The MCP client against real servers nobody here wrote — the reference `mcp-server-time`
/// over stdio, and a Streamable-HTTP server on the official Python SDK that checks a bearer
/// token — and against the scripted server for what real ones will not do on demand.
@Suite("MCP servers: real ones over stdio and HTTP, and a misbehaving one", .serialized)
struct MCPServerTests {
    /// A hub over `configs` that asks nobody (the approver decides).
    func hub(_ configs: [MCPServerConfig], approver: RecordingApprover = RecordingApprover()) -> MCPHub {
        MCPHub(configs: configs, approver: approver, approveLaunch: { _ in true })
    }

    func tool(_ name: String, in hub: MCPHub, reserved: Set<String> = []) async throws -> any Tool {
        let tools = await hub.tools(reserved: reserved)
        return try #require(tools.first { $0.definition.name == name }, "tools: \(tools.map(\.definition.name))")
    }

    func run(_ name: String, _ arguments: JSONValue = .object([]), in hub: MCPHub,
             progress: @escaping @Sendable (String) -> Void = { _ in }) async -> Toolbox.Outcome {
        let toolbox = Toolbox(await hub.tools(reserved: []))
        return await toolbox.run(ToolCall(id: "t", name: name, arguments: arguments), progress: progress)
    }

    /// Whether the first server's log comes to hold `text` within a few seconds.
    static func log(of hub: MCPHub, comesTo text: String) async throws -> Bool {
        let log = try #require(hub.servers.first).log.file
        return try await TestTiming.eventually(within: .seconds(5)) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(text)
        }
    }

    /// The pids of processes whose command line matches `pattern`; with `ownChildren`, only
    /// this test process's children (other tests run servers of the same name at the same time).
    static func processes(matching pattern: String, ownChildren: Bool = false) -> [String] {
        let pgrep = Process()
        pgrep.executableURL = URL(filePath: "/usr/bin/pgrep")
        pgrep.arguments = (ownChildren ? ["-P", String(getpid())] : []) + ["-f", pattern]
        let output = Pipe()
        pgrep.standardOutput = output
        try? pgrep.run()
        pgrep.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    @Test("mcp-server-time over stdio: handshake, its two tools with their schemas, a call, and nothing left running after stop")
    func referenceTimeServer() async throws {
        let hub = hub([MCPTestServers.time()])
        await hub.startAllAndWait()
        let server = try #require(hub.servers.first)
        guard case .ready(let tools, let version) = server.status else {
            Issue.record("not ready: \(server.status)")
            return
        }
        #expect(Set(tools.map(\.name)) == ["get_current_time", "convert_time"])
        #expect(MCPProtocolVersion.handshake.contains(version))
        let getTime = try await tool("get_current_time", in: hub)
        #expect(getTime.server == "time")
        #expect(getTime.definition.parameters["properties"]?["timezone"] != nil, "the schema is passed through")
        let outcome = await run("get_current_time", .object([("timezone", .string("Asia/Tokyo"))]), in: hub)
        #expect(!outcome.isFailure)
        #expect(outcome.text.contains("\"timezone\": \"Asia/Tokyo\"") && outcome.text.contains("+09:00"), "\(outcome.text)")
        let invalid = await run("get_current_time", .object([("timezone", .number(3))]), in: hub)
        #expect(invalid.text.contains("invalid arguments for get_current_time"), "validated before the call: \(invalid.text)")
        #expect(!Self.processes(matching: "mcp-server-time --local-timezone", ownChildren: true).isEmpty)
        await hub.stopAll()
        #expect(Self.processes(matching: "mcp-server-time --local-timezone", ownChildren: true).isEmpty, "the server ended with stop")
    }

    @Test("Streamable HTTP on the official SDK with a bearer token: tools, text, structured, image, isError, progress")
    func sdkHTTPServer() async throws {
        let web = try MCPTestServers.HTTPServer()
        defer { web.stop() }
        let hub = hub([web.config()])
        await hub.startAllAndWait()
        let names = Set(await hub.tools(reserved: []).map(\.definition.name))
        #expect(names.isSuperset(of: ["add", "echo", "slow_steps", "make_image", "fail", "weather"]), "\(names)")
        #expect(await run("add", .object([("a", .number(2)), ("b", .number(3))]), in: hub).text == "5")
        #expect(await run("echo", .object([("text", .string("grüß dich 世界"))]), in: hub).text == "grüß dich 世界")
        let weather = await run("weather", .object([("city", .string("Oslo"))]), in: hub).text
        #expect(weather.contains("21.5") && weather.contains("sunny"), "\(weather)")
        let image = await run("make_image", in: hub).text
        #expect(image.hasPrefix("[image image/png"), "\(image)")
        let failed = await run("fail", .object([("reason", .string("disk on fire"))]), in: hub)
        #expect(failed.isFailure && failed.text.contains("disk on fire"), "an isError result is the tool's error: \(failed.text)")
        let heard = Mutex<[String]>([])
        let steps = await run("slow_steps", .object([("steps", .number(2))]), in: hub) { note in heard.withLock { $0.append(note) } }
        #expect(steps.text == "finished 2 steps")
        #expect(heard.withLock { $0 } == ["step 1 of 2 (1/2)", "step 2 of 2 (2/2)"])
        await hub.stopAll()
    }

    @Test("HTTPS with a self-signed CA: refused without the CA file, works with \"caFile\" in the entry")
    func tlsWithCAFile() async throws {
        let caFile = TestServer.shared.caFile
        let web = try MCPTestServers.HTTPServer(tlsDirectory: URL(filePath: caFile).deletingLastPathComponent().path)
        defer { web.stop() }
        let untrusted = hub([web.config(name: "untrusted")])
        await untrusted.startAllAndWait()
        guard case .failed(let reason) = try #require(untrusted.servers.first).status else {
            Issue.record("expected a failure: \(String(describing: untrusted.servers.first?.status))")
            return
        }
        #expect(reason.lowercased().contains("certificate"), "\(reason)")
        var trusted = web.config(name: "trusted")
        trusted.caFile = caFile
        let hub = hub([trusted])
        await hub.startAllAndWait()
        #expect(await run("add", .object([("a", .number(20)), ("b", .number(22))]), in: hub).text == "42")
        await hub.stopAll()
    }

    @Test("A wrong bearer token: the server fails with the HTTP status, and no tools are offered")
    func wrongToken() async throws {
        let web = try MCPTestServers.HTTPServer()
        defer { web.stop() }
        let hub = hub([web.config(token: "wrong")])
        await hub.startAllAndWait()
        guard case .failed(let reason) = try #require(hub.servers.first).status else {
            Issue.record("expected a failure: \(String(describing: hub.servers.first?.status))")
            return
        }
        #expect(reason.contains("401"), "\(reason)")
        #expect(await hub.tools(reserved: []).isEmpty)
    }

    @Test("The old HTTP+SSE transport, named by the config and found by fallback from a Streamable HTTP URL")
    func legacySSE() async throws {
        let web = try MCPTestServers.HTTPServer(transport: "sse")
        defer { web.stop() }
        for config in [web.config(name: "named", sse: true), web.config(name: "fallback", url: web.sseURL)] {
            let hub = hub([config])
            await hub.startAllAndWait()
            #expect(await run("add", .object([("a", .number(40)), ("b", .number(2))]), in: hub).text == "42", "\(config.name)")
            await hub.stopAll()
        }
    }

    @Test("The HTTP server forgets the session (it restarted): the client initializes again and the call goes through")
    func sessionExpired() async throws {
        let first = try MCPTestServers.HTTPServer()
        let hub = hub([first.config()])
        await hub.startAllAndWait()
        #expect(await run("add", .object([("a", .number(1)), ("b", .number(1))]), in: hub).text == "2")
        first.stop()
        let second = try MCPTestServers.HTTPServer(token: first.token, port: first.port)
        defer { second.stop() }
        #expect(await run("add", .object([("a", .number(2)), ("b", .number(2))]), in: hub).text == "4")
        await hub.stopAll()
    }

    @Test("A POST's event stream the server keeps open after the answer: the call returns its result and Agent closes the stream",
          .timeLimit(.minutes(1)))
    func eventStreamHeldOpen() async throws {
        let web = try MCPTestServers.ScriptedHTTPServer(holdingStreams: true)
        defer { web.stop() }
        let hub = hub([web.config()])
        let heard = Mutex<[String]>([])
        let outcome = Mutex<Toolbox.Outcome?>(nil)
        // Waited for far longer than an answer takes, not the transfer's 24 h limit.
        let call = Task {
            await hub.startAllAndWait()
            let result = await run("progress", in: hub) { note in heard.withLock { $0.append(note) } }
            outcome.withLock { $0 = result }
        }
        _ = try await TestTiming.eventually(within: .seconds(20)) { outcome.withLock { $0 != nil } }
        call.cancel()
        #expect(outcome.withLock { $0 }?.text == "done", "\(String(describing: outcome.withLock { $0 }))")
        #expect(heard.withLock { $0 } == ["step 1 (1/2)", "step 2 (2/2)"], "what came before the answer is handled")
        #expect(try await web.heldStreams().map(\.method).contains("tools/call"))
        // Closed by Agent once it had the answer: not left to the server, nor to the stop below.
        let stillOpen = try await web.openStreams(settlingWithin: .seconds(10))
        #expect(stillOpen.isEmpty, "streams still open: \(stillOpen)")
        await hub.stopAll()
    }

    @Test("A stateless 2026-07-28 server: initialize is refused, server/discover and _meta on every request work")
    func statelessServer() async throws {
        let hub = hub([MCPTestServers.scripted(.modernOnly)])
        await hub.startAllAndWait()
        guard case .ready(_, let version) = try #require(hub.servers.first).status else {
            Issue.record("not ready: \(String(describing: hub.servers.first?.status))")
            return
        }
        #expect(version == MCPProtocolVersion.stateless)
        #expect(await run("echo_args", .object([("x", .number(1))]), in: hub).text == "{\"x\":1}")
        await hub.stopAll()
    }

    @Test("A server that answers initialize with 2024-11-05, older than Agent asks for: that version holds, its tools are listed and called")
    func olderProtocolVersion() async throws {
        let hub = hub([MCPTestServers.scripted(name: "old-version", .answering("2024-11-05"))])
        await hub.startAllAndWait()
        guard case .ready(let tools, let version) = try #require(hub.servers.first).status else {
            Issue.record("not ready: \(String(describing: hub.servers.first?.status))")
            return
        }
        #expect(version == "2024-11-05")
        #expect(try await Self.log(of: hub, comesTo: "initialize asked for \(MCPProtocolVersion.offered), answered 2024-11-05"))
        #expect(tools.count == 9, "both pages: \(tools.map(\.name))")
        #expect(await run("echo_args", .object([("old", .bool(true))]), in: hub).text == "{\"old\":true}")
        await hub.stopAll()
    }

    @Test("Pagination, names made valid for every backend, garbage lines skipped and logged, requests from the server answered")
    func scriptedBasics() async throws {
        let hub = hub([MCPTestServers.scripted()])
        await hub.startAllAndWait()
        let names = await hub.tools(reserved: ["echo_args"]).map(\.definition.name)
        #expect(names.count == 9, "both pages: \(names)")
        #expect(names.allSatisfy { $0.count <= 64 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } })
        #expect(names.contains("scripted__echo_args"), "a name taken by another tool gets the server's prefix")
        #expect(await run("garbage", in: hub).text == "after garbage")
        let log = try String(contentsOf: try #require(hub.servers.first).log.file, encoding: .utf8)
        #expect(log.contains("skipped a line on stdout that is not JSON: not json"))
        #expect(await run("ask_client", in: hub).text == "sampling answered: -32601; ping answered: {}")
        let heard = Mutex<[String]>([])
        #expect(await run("progress", in: hub) { note in heard.withLock { $0.append(note) } }.text == "done")
        #expect(heard.withLock { $0 } == ["step 1 (1/2)", "step 2 (2/2)"])
        await hub.stopAll()
    }

    @Test("list_changed: the new tool is offered on the next turn; over HTTP too, where it follows the answer on the call's event stream",
          arguments: [false, true])
    func toolsChange(overHTTP: Bool) async throws {
        let web = overHTTP ? try MCPTestServers.ScriptedHTTPServer(holdingStreams: true) : nil
        defer { web?.stop() }
        let hub = hub([web?.config() ?? MCPTestServers.scripted()])
        await hub.startAllAndWait()
        #expect(await run("grow", in: hub).text == "grown")
        let server = try #require(hub.servers.first)
        let deadline = ContinuousClock.now + .seconds(10)
        while !server.tools.contains(where: { $0.name == "extra" }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await run("extra", in: hub).text == "extra ran")
        await hub.stopAll()
    }

    @Test("A crash mid-call is the tool's error with the reason; the server is restarted on next use")
    func crashMidCall() async throws {
        let hub = hub([MCPTestServers.scripted()])
        await hub.startAllAndWait()
        let crashed = await run("crash", in: hub)
        #expect(crashed.isFailure && crashed.text.contains("exited with status 3"), "\(crashed.text)")
        guard case .exited(let reason) = try #require(hub.servers.first).status else {
            Issue.record("expected exited: \(String(describing: hub.servers.first?.status))")
            return
        }
        #expect(reason.contains("crashing on purpose"), "the last stderr lines explain it: \(reason)")
        #expect(await run("echo_args", .object([("again", .bool(true))]), in: hub).text == "{\"again\":true}")
        await hub.stopAll()
    }

    @Test("Retry pressed again while the first retry's launch is still starting: the server ends ready, one process running")
    func restartDuringLaunch() async throws {
        let hub = hub([MCPTestServers.scripted(name: "slow", .initializingFor(seconds: 1.5))])
        await hub.startAllAndWait()
        let server = try #require(hub.servers.first)
        let first = Task { await hub.restart("slow") }
        #expect(try await TestTiming.eventually(within: .seconds(10)) { server.status == .starting })
        await hub.restart("slow")
        await first.value
        guard case .ready(let tools, _) = server.status else {
            Issue.record("not ready: \(server.status)")
            return
        }
        #expect(tools.count == 9)
        #expect(Self.processes(matching: "mcp_scripted_server.py --initialize-delay", ownChildren: true).count == 1,
                "the first launch's server was ended")
        await hub.stopAll()
    }

    @Test("A launch question answered No after Retry started the server anew meanwhile: the running server is not marked declined")
    func staleRefusalKeepsTheServer() async throws {
        let calls = Mutex(0)
        let firstQuestion = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let hub = MCPHub(configs: [MCPTestServers.scripted()], approver: RecordingApprover(), approveLaunch: { _ in
            guard calls.withLock({ $0 += 1; return $0 }) == 1 else { return true }
            // The first question stays open until the test answers it: No.
            await withCheckedContinuation { continuation in firstQuestion.withLock { $0 = continuation } }
            return false
        })
        let server = try #require(hub.servers.first)
        let first = Task { await server.start() }
        #expect(try await TestTiming.eventually(within: .seconds(10)) { firstQuestion.withLock { $0 != nil } })
        let isReady = { if case .ready = server.status { true } else { false } }
        await hub.restart(server.config.name)
        #expect(isReady(), "\(server.status)")
        firstQuestion.withLock { $0.take() }?.resume()
        await first.value
        #expect(isReady(), "the old question's No left the new launch alone: \(server.status)")
        await hub.stopAll()
    }

    @Test("A call that never ends: the time limit makes it a tool error and the server is told to cancel")
    func neverAnswers() async throws {
        // One second for the call; starting python and the handshake get the usual time.
        var config = MCPTestServers.scripted(timeout: .seconds(1))
        config.startTimeout = MCPServerConfig.defaultTimeout
        let hub = hub([config])
        await hub.startAllAndWait()
        let outcome = await run("hang", in: hub)
        #expect(outcome.isFailure && outcome.text.contains("no answer to tools/call within 1 s"), "\(outcome.text)")
        #expect(try await Self.log(of: hub, comesTo: "scripted server: cancelled"))
        await hub.stopAll()
    }

    @Test("Stop during a call ends it at once and sends notifications/cancelled")
    func stopDuringCall() async throws {
        let hub = hub([MCPTestServers.scripted(timeout: .seconds(60))])
        await hub.startAllAndWait()
        let tools = await hub.tools(reserved: [])
        let call = Task { await Toolbox(tools).run(ToolCall(id: "t", name: "hang", arguments: .object([]))) }
        #expect(try await Self.log(of: hub, comesTo: "scripted server: hanging on request"))
        let stopped = ContinuousClock.now
        call.cancel()
        let outcome = await call.value
        #expect(ContinuousClock.now - stopped < .seconds(5), "ended without waiting for the time limit")
        #expect(outcome.isFailure)
        #expect(try await Self.log(of: hub, comesTo: "scripted server: cancelled"))
        await hub.stopAll()
    }

    @Test("A 10 MB result arrives whole over the pipe and reaches the model cut, saying so")
    func tenMegabytes() async throws {
        let hub = hub([MCPTestServers.scripted(timeout: .seconds(30))])
        await hub.startAllAndWait()
        let text = await run("big", in: hub).text
        #expect(text.hasPrefix(String(repeating: "x", count: 1000)))
        #expect(text.hasSuffix("more bytes cut: the result was too long]"))
        #expect(text.utf8.count < MCPToolResult.maximumCharacters + 100)
        await hub.stopAll()
    }

    @Test("A refused call: the model reads that the user did not approve it; the approver saw server, tool and arguments")
    func refusedCall() async throws {
        let approver = RecordingApprover(answer: false)
        let hub = hub([MCPTestServers.scripted()], approver: approver)
        await hub.startAllAndWait()
        let outcome = await run("echo_args", .object([("path", .string("/etc/passwd"))]), in: hub)
        #expect(outcome.text == "Error: the user did not approve this call")
        let question = try #require(approver.questions.first)
        #expect(question.server == "scripted" && question.tool.name == "echo_args")
        #expect(question.arguments == .object([("path", .string("/etc/passwd"))]))
        await hub.stopAll()
    }

    @Test("A call made once the reply was stopped asks the user nothing and calls nothing")
    func callAfterStop() async throws {
        let approver = RecordingApprover()
        let hub = hub([MCPTestServers.scripted()], approver: approver)
        await hub.startAllAndWait()
        let toolbox = Toolbox(await hub.tools(reserved: []))
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await toolbox.run(ToolCall(id: "t", name: "echo_args", arguments: .object([("x", .number(1))])))
        }.value
        #expect(outcome == .failed("echo_args was cancelled"))
        #expect(approver.questions.isEmpty)
        await hub.stopAll()
    }

    @Test("A command that does not exist fails with that reason; a declined launch runs nothing")
    func failuresToStart() async throws {
        let missing = MCPServerConfig(name: "missing", transport: .stdio(command: "no-such-mcp-server-here", arguments: [],
                                                                          environment: [], workingDirectory: nil))
        let hub = hub([missing])
        await hub.startAllAndWait()
        guard case .failed(let reason) = try #require(hub.servers.first).status else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("“no-such-mcp-server-here” was not found"), "\(reason)")
        let declined = MCPHub(configs: [MCPTestServers.scripted()], approver: RecordingApprover(), approveLaunch: { _ in false })
        await declined.startAllAndWait()
        #expect(declined.servers.first?.status == .declined)
    }

    @Test("Waiting for the servers ends when the waiter is cancelled (agent-cli's Ctrl+C); their start goes on")
    func startWaitEndsWhenCancelled() async throws {
        // Never answers the handshake: only its start timeout would end the wait.
        let silent = MCPServerConfig(name: "silent", transport: .stdio(command: "/bin/sleep", arguments: ["600"], environment: [],
                                                                        workingDirectory: nil), timeout: .seconds(20))
        let hub = hub([silent])
        let server = try #require(hub.servers.first)
        let waiting = Task { await hub.startAllAndWait() }
        try #require(try await TestTiming.eventually(within: .seconds(10)) { server.status == .starting }, "\(server.status)")
        waiting.cancel()
        await waiting.value
        #expect(server.status == .starting, "the wait ended before the start did")
        await hub.stopAll()
    }

    @Test("Cancelled before the servers' start (agent-cli's Ctrl+C at once): none is started")
    func cancelledBeforeTheStart() async throws {
        let launches = Mutex(0)
        let hub = MCPHub(configs: [MCPTestServers.scripted()], approver: RecordingApprover(), approveLaunch: { _ in
            launches.withLock { $0 += 1 }
            return true
        })
        defer { Task { await hub.stopAll() } }
        let server = try #require(hub.servers.first)
        let waiting = Task {
            try? await Task.sleep(for: .seconds(60))
            await hub.startAllAndWait()
        }
        waiting.cancel()
        await waiting.value
        // A start would have asked to launch by now (the launch question comes first).
        try await Task.sleep(for: .milliseconds(300))
        #expect(launches.withLock { $0 } == 0, "a launch was begun")
        #expect(server.status == .stopped, "\(server.status)")
    }
}
