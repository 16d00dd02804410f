import AgentCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// `agent-cli` with stored chats: continue, list, export, import — and what a kill -9
/// mid-stream leaves behind.
@Suite("agent-cli with stored chats")
struct AgentCLIChatTests {
    let server = TestServer.shared

    /// A private data and settings folder, as a fresh user would have.
    static func home() -> [String: String] {
        let base = FileManager.default.temporaryDirectory.appending(path: "agent-cli-chats-\(UUID())")
        return ["XDG_DATA_HOME": base.appending(path: "data").path, "XDG_CONFIG_HOME": base.appending(path: "config").path]
    }

    static func store(in environment: [String: String]) throws -> ChatStore {
        try ChatStore(file: URL(filePath: environment["XDG_DATA_HOME"] ?? "/nonexistent")
            .appending(path: "\(AppIdentity.applicationID)/chats.sqlite"))
    }

    static func chatID(in stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("agent-cli: chat ") }.map { String($0.dropFirst("agent-cli: chat ".count)) }
    }

    @Test func aNewChatIsSavedAndContinued() async throws {
        let home = Self.home()
        let first = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "Hello there"], environment: home)
        #expect(first.status == 0)
        let id = try #require(Self.chatID(in: first.stderr))
        let second = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", id, "And again"], environment: home)
        #expect(second.stdout == "Echo: And again (3 messages)\n", "the earlier turn went as context")
        let list = try await ProductRunner.run("agent-cli", ["--list-chats"], environment: home)
        #expect(list.stdout.hasPrefix("\(id)\t"))
        #expect(list.stdout.hasSuffix("\tHello there\n"))
        let unknown = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", UUID().uuidString, "x"],
                                                  environment: home)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no chat with id"))
    }

    @Test("--export prints Markdown or JSON; --import brings JSON back")
    func exportAndImport() async throws {
        let home = Self.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "Export me"], environment: home)
        let id = try #require(Self.chatID(in: made.stderr))
        let markdown = try await ProductRunner.run("agent-cli", ["--export", id, "--format", "md"], environment: home)
        #expect(markdown.stdout.hasPrefix("# Export me\n"))
        #expect(markdown.stdout.contains("Echo: Export me (1 messages)"))
        let json = try await ProductRunner.run("agent-cli", ["--export", "all", "--format", "json"], environment: home)
        let file = FileManager.default.temporaryDirectory.appending(path: "export-\(UUID()).json")
        try Data(json.stdout.utf8).write(to: file)
        let other = Self.home()
        let imported = try await ProductRunner.run("agent-cli", ["--import", file.path], environment: other)
        #expect(imported.stdout == "imported 1 chat\n")
        let again = try await ProductRunner.run("agent-cli", ["--export", "all", "--format", "json"], environment: other)
        #expect(again.stdout == json.stdout, "the round trip is exact")
    }

    @Test("--import reads a pipe (/dev/stdin) too; a folder, a missing file or an unusable data folder is an error naming the path and why")
    func importFromAnywhere() async throws {
        let home = Self.home()
        let made = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "Piped"], environment: home)
        #expect(made.status == 0, "\(made.stderr)")
        let json = try await ProductRunner.run("agent-cli", ["--export", "all", "--format", "json"], environment: home)
        let piped = try await ProductRunner.run("agent-cli", ["--import", "/dev/stdin"], stdin: json.stdout, environment: Self.home())
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == "imported 1 chat\n")

        let folder = FileManager.default.temporaryDirectory.path
        let fromFolder = try await ProductRunner.run("agent-cli", ["--import", folder], environment: Self.home())
        #expect(fromFolder.status == 1)
        #expect(fromFolder.stderr == "agent-cli: error: could not read \(folder): Is a directory\n")
        let missing = "/nonexistent/chats.json"
        let fromNowhere = try await ProductRunner.run("agent-cli", ["--import", missing], environment: Self.home())
        #expect(fromNowhere.status == 1)
        #expect(fromNowhere.stderr == "agent-cli: error: could not read \(missing): No such file or directory\n")

        let unusable = try await ProductRunner.run("agent-cli", ["--list-chats"], environment: ["XDG_DATA_HOME": "/etc/passwd"])
        #expect(unusable.status == 1)
        #expect(unusable.stderr == "agent-cli: error: /etc/passwd/\(AppIdentity.applicationID): Not a directory\n", "no raw NSError")
    }

    @Test("Without XDG_DATA_HOME the chats are under $HOME/.local/share, where GLib and the window look")
    func homeFromTheEnvironment() async throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "agent-cli-home-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": ""]
        let made = try await ProductRunner.run("agent-cli", ["--server", server.url("echo"), "--chat", "new", "At home"], environment: environment)
        #expect(made.status == 0, "\(made.stderr)")
        let file = home.appending(path: ".local/share/\(AppIdentity.applicationID)/chats.sqlite")
        #expect(try ChatStore(file: file).chats().map(\.title) == ["At home"])
    }

    @Test("kill -9 mid-stream: the chat is intact up to about a second before, the reply marked cut off")
    func crashSafety() async throws {
        let home = Self.home()
        let (process, output, error) = try ProductRunner.start("agent-cli", ["--server", server.url("paced-600-10"), "--chat", "new",
                                                                             "Count slowly"], environment: home)
        // A thread of its own reads what is printed and pulls the plug about half way through
        // the reply (some 3 s in), however busy the test process is.
        let printed = Mutex<[(time: ContinuousClock.Instant, text: String)]>([])
        let killed = Mutex<ContinuousClock.Instant?>(nil)
        let pid = process.processIdentifier
        let reader = Thread {
            var text = ""
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                let snapshot = text
                printed.withLock { $0.append((.now, snapshot)) }
                if snapshot.count >= 1400, killed.withLock({ $0 == nil }) {
                    killed.withLock { $0 = .now }
                    kill(pid, SIGKILL)
                }
            }
        }
        reader.start()
        let exited = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationReason)
            }
        }
        #expect(exited == .uncaughtSignal)
        let killedAt = try #require(killed.withLock { $0 }, "killed mid-reply")
        while !reader.isFinished { try await Task.sleep(for: .milliseconds(10)) }
        let id = try #require(Self.chatID(in: String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)))
        let store = try Self.store(in: home)
        let messages = try store.messages(in: try #require(UUID(uuidString: id))).map(\.message)
        #expect(messages.map(\.role) == [.user, .assistant])
        #expect(messages[0].text == "Count slowly")
        #expect(messages[0].state == .done)
        #expect(messages[1].state == .cutOff, "what the crash left was settled on the next open")
        let saved = messages[1].text
        let samples = printed.withLock { $0 }
        let finalText = samples.last?.text ?? ""
        #expect(finalText.hasPrefix(saved), "the saved reply is what was printed, up to some point")
        let secondBefore = samples.last { $0.time <= killedAt - .milliseconds(1300) }?.text ?? ""
        #expect(saved.count >= secondBefore.count, "no more than about the last second was lost (\(saved.count) saved, \(secondBefore.count) printed by a second before)")
        #expect(!saved.isEmpty)
    }

    @Test("A store opened while agent-cli streams into it leaves that reply streaming; opened once agent-cli is gone, it settles it")
    func openedBesideAnotherProcess() async throws {
        let home = Self.home()
        // Its first word, then nothing until agent-cli is killed: however slow the machine,
        // the reply is still streaming when the store is opened beside it.
        let scenario = server.gate()
        let (process, output, _) = try ProductRunner.start("agent-cli", ["--server", server.url(scenario), "--chat", "new",
                                                                         "Count"], environment: home)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(!output.fileHandleForReading.availableData.isEmpty, "the reply has begun")
        // Each look opens the store beside agent-cli, until the question and the word are
        // saved. Nothing more comes to save then: a look that settled the reply (as if alone)
        // would leave it settled, and the question and its reply would never be seen so.
        var during: [ChatMessage] = []
        let seen = try await TestTiming.eventually {
            guard let store = try? Self.store(in: home), let chat = try? store.chats().first else { return false }
            during = (try? store.messages(in: chat.id).map(\.message)) ?? []
            return during.map(\.state) == [.done, .streaming] && during.last?.text.isEmpty == false
        }
        #expect(seen, "left to agent-cli: \(during.map { ($0.state, $0.text) })")
        let chat = try #require(try Self.store(in: home).chats().first)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let after = try Self.store(in: home).messages(in: chat.id).map(\.message)
        #expect(after.map(\.state) == [.done, .cutOff], "alone: settled: \(after.map { ($0.state, $0.text) })")
        try await server.release(scenario)
    }
}
