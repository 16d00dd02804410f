import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// One Agent from anywhere: the real `agent` binary started as the desktop starts it, then
    /// launched again from a "script" with `--new-chat TEXT` and `--open CHAT_ID`; the second
    /// process hands its command line to the first over the session bus and exits with the
    /// first one's answer (SingleInstanceTests+WhichAgent.swift: when it is refused, when it
    /// becomes Agent itself, and when it starts an Agent of its own).
    @MainActor
    @Suite("One instance, reachable from scripts (the agent binary)", .serialized)
    struct SingleInstanceTests {
        let server = TestServer.shared

        /// A private home whose settings send chats to the test server's `scenario`.
        func home(_ scenario: String) throws -> [String: String] {
            let home = PrivateHome("agent-instance")
            let config = home.config.appending(path: AppIdentity.applicationID)
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try """
                [general]
                profile=test

                [profile test]
                name=Test server
                url=\(server.url(scenario))
                protocol=openai
                model=m
                tools=false
                """.write(to: config.appending(path: "settings.ini"), atomically: true, encoding: .utf8)
            return home.environment.merging(["GSK_RENDERER": "cairo"]) { $1 }
        }

        /// Waits until the running Agent owns its name on the session bus.
        func waitForInstance() async throws {
            let wait = try await GtkTestHarness.run(URL(filePath: "/usr/bin/gdbus"),
                                                    ["wait", "--session", "--timeout", "30", AppIdentity.applicationID])
            #expect(wait.status == 0, "Agent on the session bus: \(wait.stderr)")
        }

        func run(_ product: String, _ arguments: [String], environment: [String: String]) async throws -> ProductRunner.Output {
            try await GtkTestHarness.run(try ProductRunner.executable(product), arguments, environment: environment)
        }

        /// Starts `agent` with `arguments` and leaves it running; what it prints is read away,
        /// so that a full pipe never stops it.
        func start(_ arguments: [String], environment: [String: String]) throws -> Process {
            let (process, output, errors) = try ProductRunner.start("agent", arguments, environment: environment)
            for pipe in [output, errors] { Task.detached { _ = await ProductRunner.readToEnd(pipe.fileHandleForReading) } }
            return process
        }

        /// Ends `process` as the session ends it, and waits until it has.
        func end(_ process: Process) async throws {
            if process.isRunning { process.terminate() }
            try await GtkTestHarness.pump(until: { !process.isRunning }, "agent to end on SIGTERM")
        }

        /// Whether Agent's name on the session bus is free, waiting up to 10 seconds for it (the
        /// bus frees an ended Agent's name a moment after it ends).
        func noInstanceRuns() async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(10) * TestTiming.scale
            while true {
                let call = try await GtkTestHarness.run(URL(filePath: "/usr/bin/gdbus"), [
                    "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                    "--method", "org.freedesktop.DBus.NameHasOwner", AppIdentity.applicationID])
                #expect(call.status == 0, "NameHasOwner: \(call.stderr)")
                if call.stdout.contains("false") { return true }
                guard ContinuousClock.now < deadline else { return false }
                try await GtkTestHarness.pump(for: .milliseconds(50))
            }
        }

        /// The messages the server has been sent under `marker`, once there is one (or none after 20 seconds).
        func asked(_ marker: String) async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(20) * TestTiming.scale
            var asked: [String] = []
            while asked.isEmpty, ContinuousClock.now < deadline {
                asked = try await server.requests(containing: marker).compactMap { request in
                    let messages = (request["body"] as? [String: Any])?["messages"] as? [[String: Any]]
                    return messages?.last?["content"] as? String
                }
                try await GtkTestHarness.pump(for: .milliseconds(50))
            }
            return asked
        }

        @Test("agent --new-chat TEXT sends TEXT in a new chat of the running Agent; --open opens a stored chat, and an unknown one is refused")
        func secondLaunchReachesTheFirst() async throws {
            let marker = uniqueMarker()
            let environment = try home("echo/\(marker)")
            let first = try start([], environment: environment)
            defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
            try await waitForInstance()

            let second = try await run("agent", ["--new-chat", "Hello from a script"], environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(first.isRunning, "the first instance goes on")
            #expect(try await asked(marker) == ["Hello from a script"], "the first instance sent it")

            // The chat is saved by the first instance: agent-cli lists it, and --open finds it.
            let deadline = ContinuousClock.now + .seconds(20) * TestTiming.scale
            var chats = ""
            while !chats.contains("Hello from a script"), ContinuousClock.now < deadline {
                chats = try await run("agent-cli", ["--list-chats"], environment: environment).stdout
                try await GtkTestHarness.pump(for: .milliseconds(100))
            }
            let id = try #require(chats.split(separator: "\n").first { $0.contains("Hello from a script") }?.split(separator: "\t").first)
            let open = try await run("agent", ["--open", String(id)], environment: environment)
            #expect(open.status == 0, "\(open.stderr)")

            let missing = try await run("agent", ["--open", UUID().uuidString], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.stderr.hasPrefix("agent: there is no chat"), "\(missing.stderr)")
            #expect(first.isRunning)

            // Ended as the session ends it, whatever signals the test runner had blocked.
            try await end(first)
        }

        @Test("A notification's Open (app.open-chat) brings back the chat the reply finished in; a new chat's message is sent")
        func notificationOpensItsChat() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-instance-\(UUID())/chats.sqlite")
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url("echo"), model: "m"), store: try ChatStore(file: file),
                                                settings: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            window.viewModel.draft = "words not sent yet"
            #expect(app.perform(.newChat(message: "first chat")) == nil)
            #expect(window.viewModel.draft == "words not sent yet", "the composer keeps what it held")
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending && window.viewModel.conversation.count == 2 }, "the reply")
            let first = try #require(window.viewModel.chat?.id)
            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.send("second chat", in: window)
            #expect(window.viewModel.chat?.id != first)

            g_action_group_activate_action(OpaquePointer(app.application), "open-chat", g_variant_new_string(first.uuidString))
            try await GtkTestHarness.pump(until: { window.viewModel.chat?.id == first }, "the first chat")
            #expect(window.viewModel.conversation.messages.first?.text == "first chat")
        }
    }
}
