import AgentCore
import Foundation
@testable import GtkFront
import TestSupport
import Testing

/// Which Agent a second `agent` ends up in: none while a reply is being written (refused),
/// itself when none runs, and one of its own when it has options for one run.
extension GtkSuites.SingleInstanceTests {
    @Test("While a reply is being written, a second agent --new-chat is refused with 1 and a line on stderr, and nothing is sent; once it has finished, it is taken")
    func refusedWhileAReplyIsWritten() async throws {
        let scenario = server.gate()
        let environment = try home(scenario)
        let first = try start([], environment: environment)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        try await waitForInstance()
        let sent = try await run("agent", ["--new-chat", "Write at length"], environment: environment)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try await asked(scenario) == ["Write at length"], "the reply is being written (the server holds it)")

        for arguments in [["--new-chat", "Interrupting"], ["--new-chat"]] {
            let refused = try await run("agent", arguments, environment: environment)
            #expect(refused.status == 1, "agent \(arguments.joined(separator: " ")): \(refused.stderr)")
            #expect(refused.stderr == "agent: a reply is being written; try again once it has finished\n")
        }
        #expect(try await asked(scenario) == ["Write at length"], "nothing more was sent")
        #expect(first.isRunning)

        try await server.release(scenario)
        let deadline = ContinuousClock.now + .seconds(20) * TestTiming.scale
        var later = try await run("agent", ["--new-chat", "After the reply"], environment: environment)
        while later.status != 0, ContinuousClock.now < deadline {
            #expect(later.stderr.hasPrefix("agent: a reply is being written"), "\(later.stderr)")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            later = try await run("agent", ["--new-chat", "After the reply"], environment: environment)
        }
        #expect(later.status == 0, "taken once the reply has finished: \(later.stderr)")
        try await end(first)
        let everything = try await server.requests(containing: scenario).compactMap { request in
            ((request["body"] as? [String: Any])?["messages"] as? [[String: Any]])?.last?["content"] as? String
        }
        #expect(!everything.contains("Interrupting"), "the refused message was never sent: \(everything)")
    }

    @Test("With no Agent running, agent --new-chat TEXT becomes Agent: it stays, takes the name on the session bus and sends TEXT")
    func becomesAgentWhenNoneRuns() async throws {
        let marker = uniqueMarker()
        let environment = try home("echo/\(marker)")
        try #require(try await noInstanceRuns(), "no Agent runs before")
        let agent = try start(["--new-chat", "Hello from the first launch"], environment: environment)
        defer { if agent.isRunning { kill(agent.processIdentifier, SIGKILL) } }
        try await waitForInstance()
        #expect(try await asked(marker) == ["Hello from the first launch"], "it sent the message itself")
        #expect(agent.isRunning, "it is Agent, not a launch that handed its command line on")
        try await end(agent)
    }

    @Test("agent --server URL starts an Agent of its own beside the running one: its message goes to that server, not handed over")
    func oneRunOptionsStartTheirOwn() async throws {
        let (saved, given) = (uniqueMarker("saved"), uniqueMarker("given"))
        let environment = try home("echo/\(saved)")
        let first = try start([], environment: environment)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        try await waitForInstance()

        let own = try start(["--server", server.url("echo/\(given)"), "--model", "m", "--new-chat", "Hello with a server of its own"],
                            environment: environment)
        defer { if own.isRunning { kill(own.processIdentifier, SIGKILL) } }
        #expect(try await asked(given) == ["Hello with a server of its own"], "sent to the server given for this run")
        #expect(own.isRunning, "an Agent of its own, still running")
        #expect(first.isRunning)
        #expect(try await server.requests(containing: saved).isEmpty, "the running Agent was not asked")
        try await end(own)
        try await end(first)
    }
}
