import AgentCore
import CProcess
import Foundation
import TestSupport
import Testing

/// agent-cli against everything a network, a server or a model can do wrong: it never
/// crashes, prints whatever text arrived, says what happened on stderr, exits 1 — or,
/// for what can be survived, answers normally.
@Suite("Faults through agent-cli")
struct FaultInjectionCLITests {
    let server = TestServer.shared

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProductRunner.Output {
        try await ProductRunner.run("agent-cli", arguments, environment: environment)
    }

    @Test("Failures: exit 1, what arrived on stdout, a clear reason on stderr", arguments: [
        // scenario, what stdout holds, what stderr must say
        ("rst", "Reset here", "cut off"),
        ("http401", "", "401 Unauthorized"),
        ("http404", "", "Check the server's URL and API path"),
        ("http429", "", "try again in 30 seconds"),
        ("http500", "", "the model crashed"),
        ("http503", "", "try again in 5 seconds"),
        ("garbageonly", "", "not a chat completion"),
        ("redirectother-auth", "", "401 Unauthorized"),
    ])
    func failures(scenario: String, stdout: String, message: String) async throws {
        // A wrong key for the 401; the right one where the redirect must leave it behind.
        let name = scenario == "http401" ? "auth" : scenario
        let key = scenario == "redirectother-auth" ? "secret-key" : "wrong-key"
        let result = try await run(["--server", server.url(name), "--api-key-env", "AGENT_TEST_KEY", "go"],
                                   environment: ["AGENT_TEST_KEY": key])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == stdout + "\n")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains(key) && !result.stdout.contains(key), "the key is never printed")
    }

    @Test("A refused key, 401 or 403: exit 1, and stderr says to check the API key", arguments: [
        ("auth", "401 Unauthorized"),
        ("http403", "403 Forbidden"),
    ])
    func refusedKey(scenario: String, status: String) async throws {
        let result = try await run(["--server", server.url(scenario), "--api-key-env", "AGENT_TEST_KEY", "go"],
                                   environment: ["AGENT_TEST_KEY": "wrong-key"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "\n")
        #expect(result.stderr.contains(status), "\(result.stderr)")
        #expect(result.stderr.contains("Check the API key for this server"), "\(result.stderr)")
    }

    @Test("A server that sends one event without end: Agent stops reading at 16 MB, says so, exits 1")
    func endlessEvent() async throws {
        let marker = uniqueMarker()
        let result = try await run(["--server", server.url("endless/\(marker)"), "go"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(StreamLimit.message), "\(result.stderr)")
        // The server notices the hang-up when its next write fails, which may be after agent-cli has exited.
        #expect(try await server.event("endless-closed", containing: marker), "the connection was closed, not read to its end")
    }

    @Test("A redirect on the same server is followed, the key with it; to another host the key stays behind")
    func redirects() async throws {
        let same = try await run(["--server", server.url("redirect-auth"), "--api-key-env", "AGENT_TEST_KEY", "go"],
                                 environment: ["AGENT_TEST_KEY": "secret-key"])
        #expect(same.status == 0 && same.stdout == "Authorized reply\n", "\(same.stderr)")
        // "redirectother-auth" in `failures`: the server at the other host name got no key (401).
    }

    @Test("Refused connection and unknown host: exit 1, naming the server and what to check")
    func unreachable() async throws {
        let port = agent_free_loopback_port()
        let refused = try await run(["--server", "http://127.0.0.1:\(port)", "go"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("127.0.0.1:\(port)") && refused.stderr.lowercased().contains("connect"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Check that the server is running"), "what to do: \(refused.stderr)")
        let unknown = try await run(["--server", "http://no-such-host.invalid", "go"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no-such-host.invalid") && unknown.stderr.contains("resolve"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("That host name is not known"), "what to do: \(unknown.stderr)")
    }

    @Test("A server that goes silent: the idle timeout gives up and says so; what arrived is printed")
    func stall() async throws {
        // Longer than a loaded test server takes to send the stall's first word.
        let limit = 3 * TestTiming.scale
        let result = try await run(["--server", server.url("stall"), "--idle-timeout", String(limit), "go"])
        #expect(result.status == 1)
        #expect(result.stdout == "Waiting\n")
        #expect(result.stderr.contains("sent nothing for \(limit) seconds"), "\(result.stderr)")
    }

    @Test("--idle-timeout 0 waits out a pause of 4 seconds that --idle-timeout 2 gives up on, when the 2 seconds are up")
    func noIdleTimeout() async throws {
        let started = ContinuousClock.now
        async let patient = run(["--server", server.url("pause-4000/\(uniqueMarker())"), "--idle-timeout", "0", "go"])
        async let hasty = run(["--server", server.url("pause-4000/\(uniqueMarker())"), "--idle-timeout", "2", "go"])
        let cut = try await hasty
        let cutAfter = ContinuousClock.now - started
        let waited = try await patient
        #expect(cutAfter >= .seconds(2), "not given up on before the 2 seconds were up: \(cutAfter)")
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stdout == "Waiting over\n")
        #expect(cut.status == 1, "cut within the pause, not once libcurl's five-second speed average dropped")
        #expect(cut.stdout == "Waiting\n")
        #expect(cut.stderr.contains("sent nothing for 2 seconds,"), "\(cut.stderr)")
    }

    @Test("An untrusted certificate is refused (with advice), and accepted with its CA")
    func untrustedCertificate() async throws {
        let refused = try await run(["--server", server.tlsURL("echo"), "go"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("certificate") && refused.stderr.contains("--ca-file"), "\(refused.stderr)")
        let trusted = try await run(["--server", server.tlsURL("echo"), "--ca-file", server.caFile, "go"])
        #expect(trusted.status == 0 && trusted.stdout == "Echo: go (1 messages)\n")
    }

    @Test("What can be survived is: one byte per write, invalid UTF-8, garbage lines, a 10 MB reply", arguments: [
        ("split", "héllo wörld 👋 世界"),
        ("badutf8", "caf\u{FFFD} ok \u{FFFD} end"),
        ("garbage", "Survived"),
    ])
    func survivable(scenario: String, reply: String) async throws {
        let result = try await run(["--server", server.url(scenario), "go"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == reply + "\n")
    }

    @Test("A 10 MB reply arrives whole on stdout")
    func tenMegabyteReplyArrivesWhole() async throws {
        let result = try await run(["--server", server.url("huge-10"), "go"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = String(repeating: "All work and no play makes a long reply. ", count: 2) + "\n"
        #expect(result.stdout.utf8.count >= 9_900_000 && result.stdout.utf8.count <= 10_100_000)
        #expect(result.stdout.hasPrefix(line + line) && result.stdout.hasSuffix(line + "\n"))
    }
}
