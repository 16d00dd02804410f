import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli` with the standard streams a shell can hand it — closed, a directory, a full
/// disk, a reader that goes away — and with another agent-cli on the same chat: a clear
/// error and a non-zero status, never a crash, and no reply lost.
@Suite("agent-cli's standard streams, and two at once on a chat")
struct AgentCLIStreamsTests {
    let server = TestServer.shared

    /// Runs agent-cli through bash with `redirections` (`<&-`, `> /dev/full`) applied to it;
    /// stderr is collected.
    static func run(_ arguments: [String], redirections: String, environment: [String: String]) async throws -> ProductRunner.Output {
        try await shell("exec \"$@\" \(redirections)", arguments, environment: environment)
    }

    /// Runs `script` in bash, with "$@" standing for agent-cli and `arguments`; its status
    /// and stderr.
    static func shell(_ script: String, _ arguments: [String], environment: [String: String]) async throws -> ProductRunner.Output {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/bash")
        process.arguments = ["-c", script, "bash", try ProductRunner.executable("agent-cli").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["LANG": "C.UTF-8", "LANGUAGE": ""]) { $1 }
            .merging(environment) { $1 }
        let error = Pipe()
        process.standardError = error
        try process.run()
        let stderr = await ProductRunner.readToEnd(error.fileHandleForReading)
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        return ProductRunner.Output(status: process.terminationStatus, stdout: "", stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("Standard input closed or a directory: no prompt, or why it cannot be read; no crash")
    func input() async throws {
        let home = AgentCLIChatTests.home()
        let closed = try await Self.run(["--server", server.url("echo")], redirections: "<&-", environment: home)
        #expect(closed.status == 2)
        #expect(closed.stderr.hasPrefix("agent-cli: no prompt"))
        let directory = try await Self.run(["--server", server.url("echo")], redirections: "< /", environment: home)
        #expect(directory.status == 1)
        #expect(directory.stderr == "agent-cli: error: cannot read standard input: Is a directory\n")
    }

    @Test("Output to a full disk or a closed descriptor: status 1 and why, for a reply, an export and a list")
    func output() async throws {
        let home = AgentCLIChatTests.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "Keep me"], environment: home)
        #expect(made.status == 0)
        let full = "agent-cli: error: cannot write to standard output: No space left on device\n"
        let closed = "agent-cli: error: cannot write to standard output: Bad file descriptor\n"
        for (arguments, redirection, message) in [
            (["--export", "all", "--format", "json"], "> /dev/full", full),
            (["--export", "all", "--format", "json"], ">&-", closed),
            (["--list-chats"], ">&-", closed),
            (["--server", server.url("echo"), "hi"], "> /dev/full", full),
        ] {
            let outcome = try await Self.run(arguments, redirections: redirection, environment: home)
            #expect(outcome.status == 1, "\(arguments) \(redirection)")
            #expect(outcome.stderr.hasSuffix(message), "\(arguments) \(redirection)")
        }
        let list = try await ProductRunner.run("agent-cli", ["--list-chats"], environment: home)
        #expect(list.stdout.hasSuffix("\tKeep me\n"), "the chat is as it was")
    }

    @Test("The reader goes away mid-reply (| head): the reply so far is kept, marked stopped; status 1 and why")
    func readerGoesAway() async throws {
        let home = AgentCLIChatTests.home()
        // The pipe is the shell's, so no other process holds its reading end.
        let piped = try await Self.shell("\"$@\" | head -c 20 > /dev/null; exit ${PIPESTATUS[0]}",
                                         ["--server", server.url("paced-200-20"), "--chat", "new", "Count"], environment: home)
        #expect(piped.status == 1, "not killed by SIGPIPE (141)")
        #expect(piped.stderr.hasSuffix("agent-cli: error: cannot write to standard output: Broken pipe\n"))
        let id = try #require(AgentCLIChatTests.chatID(in: piped.stderr).flatMap(UUID.init(uuidString:)))
        let reply = try #require(try AgentCLIChatTests.store(in: home).messages(in: id).last?.message)
        #expect(reply.state == .stopped)
        #expect(reply.text.contains("w0 w1"), "what came before the reader went is kept")
        #expect(!reply.text.contains("w199"), "stopped there, not read to the end")
    }

    @Test("A second agent-cli on a chat while the first waits for its reply: both replies are kept, in order")
    func twoAtOnce() async throws {
        let home = AgentCLIChatTests.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "zero"], environment: home)
        let id = try #require(AgentCLIChatTests.chatID(in: made.stderr))
        let (first, output, error) = try ProductRunner.start("agent-cli", ["--server", server.url("late-3000"), "--chat", id, "first"],
                                                             environment: home)
        // The first run has stored its question and its reply, still empty (it names the chat
        // once it has), when the second opens the chat.
        var firstErrors = ""
        while !firstErrors.contains("agent-cli: chat ") {
            let data = await ProductRunner.nextData(error.fileHandleForReading)
            try #require(!data.isEmpty, "the first run ended early: \(firstErrors)")
            firstErrors += String(decoding: data, as: UTF8.self)
        }
        let second = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", id, "second"], environment: home)
        #expect(second.status == 0, "\(second.stderr)")
        async let rest = ProductRunner.readToEnd(output.fileHandleForReading)
        firstErrors += String(decoding: await ProductRunner.readToEnd(error.fileHandleForReading), as: UTF8.self)
        _ = await rest
        while first.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        #expect(first.terminationStatus == 0, "\(firstErrors)")
        let chat = try #require(UUID(uuidString: id))
        let messages = try AgentCLIChatTests.store(in: home).messages(in: chat).map(\.message)
        // The second question went below the first's reply, empty then, which its request left out.
        #expect(messages.map(\.text) == ["zero", "Echo: zero (1 messages)", "first", "Echo: first (3 messages)", "second",
                                        "Echo: second (4 messages)"])
        #expect(messages.map(\.state) == Array(repeating: .done, count: 6))
    }
}
