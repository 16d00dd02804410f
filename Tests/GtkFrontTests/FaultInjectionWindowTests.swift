import AgentCore
import CGtk
import TextLayout
import CProcess
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The window against everything a network or server can do wrong. For each: the alert
    /// says what happened, the user's text is kept (in the transcript and back in the entry
    /// when nothing arrived), a partial reply stays and is marked cut off, and the main loop
    /// keeps answering (`MainLoopProbe`: nothing froze for a second — how long it waited is
    /// measured in bench/, not asserted here).
    @MainActor
    @Suite("Faults in the window (GTK under Xvfb)", .serialized)
    struct FaultInjectionWindowTests {
        let server = TestServer.shared
        /// What a window that keeps answering never comes near, however busy the machine.
        static let frozen: Duration = .seconds(1) * TestTiming.scale

        /// Sends `prompt` to `endpoint` and waits for the exchange to end, probing the main loop.
        func exchange(_ endpoint: ChatEndpoint, prompt: String = "Will this work?",
                      during: (ChatWindow) async throws -> Void = { _ in }) async throws -> (AgentApplication, ChatWindow, Duration) {
            let (app, window) = try await GtkTestHarness.shown(GtkTestHarness.launch(endpoint))
            let probe = MainLoopProbe()
            try await Xdo.type(prompt)
            try await Xdo.key("Return")
            try await during(window)
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, timeout: .seconds(60), "the exchange to end")
            try await GtkTestHarness.settle(window)
            let (longest, samples) = probe.stop()
            #expect(samples > 3, "the probe ran")
            return (app, window, longest)
        }

        /// The alert's heading and body, read from the dialog; closes it with Enter.
        func alertText(_ window: ChatWindow) async throws -> String {
            try await GtkTestHarness.pump(until: { window.alert != nil }, "the alert")
            let alert = try #require(window.alert)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(alert.window) }, "the alert on screen")
            #expect(alert.heading == "LLM Error")
            let text = alert.body
            try await Xdo.focus(alert.window)
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.alert == nil }, "the alert to close")
            return text
        }

        func stateText(_ row: MessageRow) -> String {
            String(cString: gtk_label_get_text(OpaquePointer(row.stateLabel)))
        }

        @Test("Nothing arrives: the alert explains, the message is marked and its text is back in the entry", arguments: [
            // scenario, API key, what the alert must say
            ("auth", "wrong-key", "401 Unauthorized"),
            ("http403", "wrong-key", "Check the API key for this server"),
            ("http404", nil, "Check the server's URL and API path"),
            ("http429", nil, "try again in 30 seconds"),
            ("http500", nil, "the model crashed"),
            ("http503", nil, "try again in 5 seconds"),
            ("garbageonly", nil, "not a chat completion"),
            ("redirectother-auth", "secret-key", "401 Unauthorized"),
            ("refused", nil, "Check that the server is running"),
            ("unknown-host", nil, "That host name is not known"),
            ("tls", nil, "CA certificate"),
        ] as [(String, String?, String)])
        func nothingArrives(scenario: String, key: String?, message: String) async throws {
            var endpoint = switch scenario {
            case "refused": ChatEndpoint(serverURL: "http://127.0.0.1:\(agent_free_loopback_port())", model: "m")
            case "unknown-host": ChatEndpoint(serverURL: "http://no-such-host.invalid", model: "m")
            case "tls": ChatEndpoint(serverURL: server.tlsURL("echo"), model: "m")
            default: ChatEndpoint(serverURL: server.url(scenario), model: "m")
            }
            endpoint.apiKey = key.map(APIKey.init)
            let prompt = "Keep this text: \(scenario)"
            let (app, window, longest) = try await exchange(endpoint, prompt: prompt)
            defer { GtkTestHarness.close(app) }
            let alert = try await alertText(window)
            #expect(alert.contains(message), "\(alert)")
            if let key { #expect(!alert.contains(key), "the key is never shown") }
            let model = window.viewModel
            #expect(model.conversation.count == 1, "no empty reply is left behind")
            let user = model.conversation[0]
            #expect(user.text == prompt && user.state == .failed)
            let row = try #require(window.transcript.boundRow(for: user.id))
            #expect(stateText(row) == "Not answered")
            #expect(window.composer.input.text == prompt, "the text is back in the entry")
            #expect(GtkTestHarness.isSensitive(window.composer.sendButton))
            #expect(longest < Self.frozen, "the main loop waited \(longest)")
        }

        @Test("A stream that breaks or goes silent: the partial reply stays, marked cut off", arguments: [
            ("rst", "Reset here", "cut off"),
            ("stall", "Waiting", "sent nothing for 2 seconds"),
        ])
        func partialReplies(scenario: String, partial: String, message: String) async throws {
            var endpoint = ChatEndpoint(serverURL: server.url(scenario), model: "m")
            endpoint.idleTimeout = .seconds(2)
            var typedWhileWaiting = false
            let (app, window, longest) = try await exchange(endpoint) { window in
                guard scenario == "stall" else { return }
                // While the server is silent the window answers: the user can type the next message.
                try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 2
                    && window.viewModel.conversation[1].text == partial }, "the first token")
                try await Xdo.type("typed during the stall")
                typedWhileWaiting = window.composer.input.text == "typed during the stall"
            }
            defer { GtkTestHarness.close(app) }
            let alert = try await alertText(window)
            #expect(alert.contains(message), "\(alert)")
            let model = window.viewModel
            let reply = try #require(model.conversation.messages.last)
            #expect(reply.role == .assistant && reply.text == partial && reply.state == .cutOff)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(row.displayedText == partial)
            #expect(stateText(row) == "Cut off")
            #expect(model.conversation[0].state == .done, "the message was delivered")
            if scenario == "stall" { #expect(typedWhileWaiting && window.composer.input.text == "typed during the stall") }
            #expect(longest < Self.frozen, "the main loop waited \(longest)")
        }

        @Test("What can be survived is: one byte per write, invalid UTF-8, garbage lines, a redirect, a trusted CA", arguments: [
            ("split", "héllo wörld 👋 世界"),
            ("badutf8", "caf\u{FFFD} ok \u{FFFD} end"),
            ("garbage", "Survived"),
            ("redirect-auth", "Authorized reply"),
            ("tls-trusted", "Echo: Will this work? (1 messages)"),
        ])
        func survivable(scenario: String, reply: String) async throws {
            let endpoint = switch scenario {
            case "tls-trusted": ChatEndpoint(serverURL: server.tlsURL("echo"), model: "m", caFile: server.caFile)
            case "redirect-auth": ChatEndpoint(serverURL: server.url(scenario), model: "m", apiKey: APIKey("secret-key"))
            default: ChatEndpoint(serverURL: server.url(scenario), model: "m")
            }
            let (app, window, longest) = try await exchange(endpoint)
            defer { GtkTestHarness.close(app) }
            #expect(!window.viewModel.status.showError, "\(window.viewModel.status.errorMessage)")
            let message = try #require(window.viewModel.conversation.messages.last)
            #expect(message.text == reply && message.state == .done)
            #expect(try #require(window.transcript.boundRow(for: message.id)).displayedText == reply)
            #expect(longest < Self.frozen, "the main loop waited \(longest)")
        }

        @Test("The local llama-server killed mid-reply: the reply so far stays, cut off; the alert names the crash; the next message starts it again")
        func localModelCrash() async throws {
            let server = LocalModelServer()
            let connection = ChatConnection(localServer: server, options: LongLocalReply.options)
            defer { connection.shutdown() }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), connection: connection)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            let model = window.viewModel
            try await GtkTestHarness.show(window)
            let probe = MainLoopProbe()
            try await Xdo.type(LongLocalReply.prompt)
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 && !model.conversation[1].text.isEmpty },
                                          timeout: .seconds(60), "the local model's first words")
            let first = try #require(server.pid)
            kill(first, SIGKILL)
            let alert = try await alertText(window)
            #expect(alert.contains("The local model (llama-server) stopped while answering: it was killed by signal 9"), "\(alert)")
            let reply = model.conversation[1]
            #expect(reply.state == .cutOff && !reply.text.isEmpty)
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(stateText(row) == "Cut off")
            #expect(model.conversation[0].state == .done)

            try await Xdo.focus(window.window)
            try await Xdo.type("Say hello.")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { !model.isSending }, timeout: .seconds(60), "the second reply")
            #expect(!model.status.showError, "\(model.status.errorMessage)")
            #expect(model.conversation.messages.last?.state == .done)
            #expect(server.pid != nil && server.pid != first, "a new llama-server answered")
            let (longest, samples) = probe.stop()
            #expect(samples > 3, "the probe ran")
            #expect(longest < Self.frozen, "the main loop waited \(longest)")
        }

        @Test("A 10 MB reply: kept whole, the row shows its head and says so, the window stays responsive")
        func tenMegabyteReply() async throws {
            let (app, window, longest) = try await exchange(ChatEndpoint(serverURL: server.url("huge-10"), model: "m"))
            defer { GtkTestHarness.close(app) }
            #expect(!window.viewModel.status.showError, "\(window.viewModel.status.errorMessage)")
            let reply = try #require(window.viewModel.conversation.messages.last)
            #expect(reply.state == .done && reply.text.utf8.count > 9_900_000)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            let shown = row.displayedText
            #expect(shown.utf8.count <= LongText.displayLimit && shown.utf8.count > LongText.displayLimit - 4096)
            #expect(reply.text.hasPrefix(shown), "the start of the reply, as it is")
            let notice = try #require(row.reply.longReply?.notice)
            #expect(GtkTestHarness.isVisible(notice))
            #expect(String(cString: gtk_label_get_text(notice.opaque)).contains("longer than the window shows"))
            #expect(String(cString: gtk_widget_get_tooltip_text(notice)) == "The whole reply: 10.0\u{A0}MB")
            #expect(longest < Self.frozen, "the main loop waited \(longest)")
        }
    }
}
