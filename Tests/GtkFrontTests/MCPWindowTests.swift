import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// MCP servers in the window, with the real stdio server `mcp-server-time`: one added in
    /// Preferences › Tools by pasting its configuration — its launch asked over Preferences,
    /// its tools listed in its row — and the question before a model's call to its tool,
    /// answered Allow Once or Deny, with what the reply then shows; and the servers started
    /// only after the window's first frame. Clicks and key presses
    /// go through the X server; results are read back from the widgets and the files.
    @MainActor
    @Suite("MCP servers in the window (GTK under Xvfb)", .serialized)
    struct MCPWindowTests {
        let server = TestServer.shared
        let preferencesSteps = PreferencesWindowTests()

        /// The reference server from `scripts/install-test-servers`.
        static func timeServer() throws -> String {
            let installed = MCPTestServers.venv.appending(path: "bin/mcp-server-time").path
            guard FileManager.default.isExecutableFile(atPath: installed) else {
                throw Xdo.Failed(description: "mcp-server-time is not installed (scripts/install-test-servers; "
                    + "AGENT_TEST_SERVERS_DIR names its folder): looked at \(installed)")
            }
            return installed
        }

        /// What a test runs against: the app, its window, and the MCP servers it edits.
        struct Launched {
            let app: AgentApplication
            let window: ChatWindow
            let model: MCPServersModel
            let settings: SettingsStore
            let file: URL
        }


        /// The app with the chat going to `scenario` of the test server, its tools joined by
        /// the MCP servers of `servers` (written to a fresh `mcp.json` first; a command listed
        /// in `approved` runs without asking). `firstPaint` runs once the window's first frame
        /// is painted, with the app's MCP servers.
        func launch(_ scenario: String, servers: [(name: String, entry: JSONValue)] = [],
                    approved: [MCPServerConfig] = [], firstPaint: (@MainActor (MCPServersModel) -> Void)? = nil) async throws -> Launched {
            let settings = try TestTools.settings()
            for config in approved { settings.approvedMCPLaunches.insert(config.launchFingerprint) }
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-mcp-\(UUID().uuidString)/mcp.json")
            if !servers.isEmpty {
                var document = MCPConfigDocument()
                for (name, entry) in servers { document.add(name: name, entry: entry) }
                try document.save(to: file)
            }
            let consent = ConsentBroker()
            let model = MCPServersModel.make(settings: settings, secrets: SecretStore(), consent: consent, file: file)
            let endpoint = ChatEndpoint(serverURL: server.url(scenario), model: "test-model")
            let preferences = AppPreferences(settings: settings, secrets: SecretStore(), mcp: model) {
                ChatConnection(endpoint: endpoint, mcp: MCPTools(hub: model.hub, disabled: settings.disabledMCPTools))
            }
            let app = try GtkTestHarness.launch(endpoint, consent: consent, preferences: preferences)
            let window = try #require(app.window)
            if let firstPaint { AfterPaint.next(window.window) { firstPaint(model) } }
            try await GtkTestHarness.show(window)
            return Launched(app: app, window: window, model: model, settings: settings, file: file)
        }

        static func timeEntry(_ path: String) -> JSONValue {
            .object([("command", .string(path)), ("args", .array([.string("--local-timezone"), .string("UTC")]))])
        }

        static func timeConfig(_ path: String) -> MCPServerConfig {
            MCPServerConfig(name: "time", transport: .stdio(command: path, arguments: ["--local-timezone", "UTC"], environment: [],
                                                            workingDirectory: nil))
        }

        /// Add Server › Paste Configuration… in Preferences › Tools, clicked; the dialog, focused.
        func openPasteDialog(in group: MCPServersGroup) async throws -> MessageDialog {
            try await Xdo.click(group.addButton)
            let menu = try #require(GtkTestHarness.descendant(ofType: "GtkPopoverMenu", in: group.addButton))
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(menu) }, "the Add Server menu")
            try await Xdo.click(try #require(GtkTestHarness.mappedLabel("Paste Configuration…", in: menu)))
            try await GtkTestHarness.pump(until: { group.pasteDialog.map { GtkTestHarness.isMapped($0.window) } == true }, "the paste dialog")
            let paste = try #require(group.pasteDialog)
            try await Xdo.focus(paste.window)
            return paste
        }

        @Test("Paste a configuration in Preferences › Tools: its program is asked about over Preferences, Run starts it, its row lists its tools")
        func pasteAServerInPreferences() async throws {
            let path = try Self.timeServer()
            let launched = try await launch("echo")
            defer { GtkTestHarness.close(launched.app) }
            let window = launched.window
            let preferences = try await preferencesSteps.openPreferences(window)
            try await preferencesSteps.showPage("Tools", of: preferences)
            let group = try #require(preferences.tools.mcpServers)
            #expect(GtkTestHarness.isMapped(group.emptyRow), "no servers yet")

            let paste = try await openPasteDialog(in: group)
            #expect(paste.heading == "Paste MCP Configuration")
            #expect(GtkTestHarness.button("Add", in: paste.window).map(GtkTestHarness.isSensitive) == false, "nothing to add yet")
            let json = """
                {"mcpServers": {"time": {"command": "\(path)", "args": ["--local-timezone", "UTC"]}}}
                """
            try await GtkTestHarness.setClipboard(json)
            try await Xdo.key("ctrl+v")
            let add = try GtkTestHarness.requireButton("Add", in: paste.window)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isSensitive(add) }, "Add to accept the pasted configuration")
            try await GtkTestHarness.answer(paste, "Add")

            // The launch question, over Preferences (modal over the chat window).
            try await GtkTestHarness.pump(until: { window.consentDialog != nil }, "the launch question")
            let question = try #require(window.consentDialog)
            #expect(question.heading == "Run This Program?")
            #expect(question.body.contains("“time”"))
            #expect(gtk_window_get_transient_for(question.window.cast()) == UnsafeMutableRawPointer(preferences.window).assumingMemoryBound(to: GtkWindow.self),
                    "asked over Preferences, not behind it")
            #expect(GtkText.labels(in: question.window).contains("\(path) --local-timezone UTC"), "the whole command line")
            try await GtkTestHarness.answer(question, "Run")

            try await GtkTestHarness.pump(until: { group.row(named: "time")?.subtitle == "2 tools" }, timeout: .seconds(30),
                                          "the server's row to say it has 2 tools")
            let row = try #require(group.row(named: "time"))
            #expect(!GtkTestHarness.isVisible(group.emptyRow))
            try await Xdo.click(row.widget, y: 20)
            try await GtkTestHarness.pump(until: { row.isExpanded }, "the row to open")
            let toolSwitch = try #require(row.toolSwitches["get_current_time"])
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(toolSwitch) }, "its tools on screen")
            #expect(gtk_switch_get_active(toolSwitch.opaque) != 0, "a new server's tools are on")
            #expect(Set(row.toolSwitches.keys) == ["get_current_time", "convert_time"])
            #expect(GtkText.labels(in: row.widget).contains("\(path) --local-timezone UTC"), "the row says what it runs")

            let saved = try MCPConfigDocument.load(from: launched.file)
            #expect(saved.serverNames == ["time"], "mcp.json holds the server")
            #expect(launched.settings.approvedMCPLaunches.contains(Self.timeConfig(path).launchFingerprint))
            try await preferencesSteps.close(preferences, of: window)
            await launched.model.hub.stopAll()
        }

        @Test("Ctrl+Q in a dialog opened from Preferences quits, as in Preferences: Preferences closes, its changes written")
        func quitFromADialogOverPreferences() async throws {
            let launched = try await launch("echo")
            defer { GtkTestHarness.close(launched.app) }
            let window = launched.window
            let preferences = try await preferencesSteps.openPreferences(window)
            try await preferencesSteps.showPage("Generation", of: preferences)
            try await Xdo.click(preferences.generation.systemPrompt)
            try await Xdo.type("Be brief.")
            try await preferencesSteps.showPage("Tools", of: preferences)
            let group = try #require(preferences.tools.mcpServers)
            _ = try await openPasteDialog(in: group)
            try await Xdo.key("ctrl+q")
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Preferences to close")
            #expect(GtkTestHarness.messageDialogs().isEmpty, "the dialog went with it")
            #expect(launched.settings.systemPrompt == "Be brief.")
        }

        @Test("MCP servers start once the window's first frame is painted, not before: their programs never delay it")
        func serversStartAfterTheFirstFrame() async throws {
            let path = try Self.timeServer()
            let folder = FileManager.default.temporaryDirectory.appending(path: "agent-mcp-start-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let started = folder.appending(path: "started")
            // The reference server, behind a script that leaves a file when it is run.
            let program = folder.appending(path: "time-server")
            try ExecutableScript.write("#!/bin/sh\n: > '\(started.path)'\nexec '\(path)' \"$@\"\n", to: program)
            var atTheFirstFrame: (read: Bool, run: Bool)?
            let launched = try await launch("echo", servers: [("time", Self.timeEntry(program.path))],
                                            approved: [Self.timeConfig(program.path)]) { model in
                atTheFirstFrame = (!model.configs.isEmpty, FileManager.default.fileExists(atPath: started.path))
            }
            defer { GtkTestHarness.close(launched.app) }
            try await GtkTestHarness.pump(until: { atTheFirstFrame != nil }, "the window's first frame")
            #expect(atTheFirstFrame?.read == false, "mcp.json was read before the window's first frame")
            #expect(atTheFirstFrame?.run == false, "the server's program ran before the window's first frame")
            try await GtkTestHarness.pump(until: { !(launched.model.server(named: "time")?.tools.isEmpty ?? true) }, timeout: .seconds(30),
                                          "the server started after it, its tools listed")
            #expect(FileManager.default.fileExists(atPath: started.path))
            await launched.model.hub.stopAll()
        }

        /// Sends a message whose reply calls `get_current_time`, answers the question with
        /// `answer`, and returns the reply's tool line.
        func callTheTimeTool(answering answer: String) async throws -> (Launched, String) {
            let path = try Self.timeServer()
            let launched = try await launch("tools-mcptime", servers: [("time", Self.timeEntry(path))], approved: [Self.timeConfig(path)])
            let window = launched.window
            try await GtkTestHarness.pump(until: { !(launched.model.server(named: "time")?.tools.isEmpty ?? true) }, timeout: .seconds(30),
                                          "the time server ready")
            try await Xdo.type("What time is it?")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.consentDialog != nil }, timeout: .seconds(30), "the tool call question")
            let question = try #require(window.consentDialog)
            #expect(question.heading == "Run “get_current_time”?")
            #expect(question.body.hasPrefix("test-model wants to run a tool of the MCP server “time”."), "\(question.body)")
            let labels = GtkText.labels(in: question.window)
            #expect(labels.contains("{\n  \"timezone\": \"UTC\"\n}"), "the arguments, indented")
            #expect(labels.contains("The server says it only reads. This is its own claim; Agent cannot check it."), "its hints, as claims")
            for label in ["Deny", "Allow Once", "Always Allow"] { #expect(GtkTestHarness.button(label, in: question.window) != nil) }
            try await GtkTestHarness.answer(question, answer)
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, timeout: .seconds(30), "the reply")
            try await GtkTestHarness.settle(window)
            #expect(window.consentDialog == nil)
            let reply = window.viewModel.conversation[1]
            let row = try #require(window.transcript.boundRow(for: reply.id))
            let line = try #require(row.reply.toolLines.first).summaryText
            return (launched, line)
        }

        @Test("A model calls an MCP tool: Allow Once runs it; the reply's tool line names server and tool, with the result")
        func allowOnceRunsTheTool() async throws {
            let (launched, line) = try await callTheTimeTool(answering: "Allow Once")
            defer { GtkTestHarness.close(launched.app) }
            #expect(line.hasPrefix("Tool time › get_current_time({\"timezone\":\"UTC\"}) → "), "\(line)")
            #expect(line.contains("\"timezone\": \"UTC\"") || line.contains("\"timezone\":\"UTC\""), "the server's answer: \(line)")
            #expect(launched.window.viewModel.conversation[1].text.hasPrefix("Tool results:"))
            #expect(launched.settings.alwaysAllowedMCPTools.isEmpty, "once is not always")
            await launched.model.hub.stopAll()
        }

        @Test("A model calls an MCP tool: Deny does not run it; the tool line shows the refusal the model was given")
        func denyRefusesTheCall() async throws {
            let (launched, line) = try await callTheTimeTool(answering: "Deny")
            defer { GtkTestHarness.close(launched.app) }
            #expect(line == "Tool time › get_current_time({\"timezone\":\"UTC\"}) → Error: \(MCPRefusal.text)", "\(line)")
            await launched.model.hub.stopAll()
        }

        @Test("Always Allow is remembered: listed in Preferences › Tools as Always Allowed, where Ask Again takes it back")
        func alwaysAllowIsListedAndTakenBack() async throws {
            let (launched, line) = try await callTheTimeTool(answering: "Always Allow")
            defer { GtkTestHarness.close(launched.app) }
            #expect(line.hasPrefix("Tool time › get_current_time("), "\(line)")
            let key = MCPToolKey(server: "time", tool: "get_current_time")
            #expect(launched.settings.alwaysAllowedMCPTools == [key])

            let preferences = try await preferencesSteps.openPreferences(launched.window)
            try await preferencesSteps.showPage("Tools", of: preferences)
            let group = try #require(preferences.tools.mcpAlwaysAllowed)
            #expect(GtkTestHarness.isVisible(group.widget))
            #expect(group.rows.map(\.key) == [key])
            let row = try #require(group.rows.first)
            #expect(GtkText.labels(in: row.row).contains("time › get_current_time"))
            try await Xdo.click(row.button)
            try await GtkTestHarness.pump(until: { group.rows.isEmpty }, "the row to go")
            #expect(launched.settings.alwaysAllowedMCPTools.isEmpty, "the next call is asked about again")
            #expect(!GtkTestHarness.isVisible(group.widget), "nothing left to list")
            let servers = try #require(preferences.tools.mcpServers)
            #expect(FocusRescue.holdsFocus(in: servers.addButton), "the focus left the row before it went")
            try await preferencesSteps.close(preferences, of: launched.window)
            await launched.model.hub.stopAll()
        }

        @Test("Gemma 3 270M in the window calls a tool of the SDK's HTTP server: asked, allowed by a click, its answer in the reply")
        func gemmaCallsAnMCPTool() async throws {
            let gemma = LocalModelServer(model: .gemma3)
            defer { gemma.stop() }
            let endpoint = try await gemma.endpoint()
            let web = try MCPTestServers.HTTPServer()
            defer { web.stop() }
            let settings = try TestTools.settings()
            // The user kept one tool on: a 270M model copes with one (Agent's own are off too).
            settings.disabledMCPTools = Set(["add", "echo", "slow_steps", "make_image", "fail", "weather"].map { MCPToolKey(server: "web", tool: $0) })
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-mcp-\(UUID().uuidString)/mcp.json")
            var document = MCPConfigDocument()
            document.add(name: "web", entry: .object([("url", .string(web.url)),
                                                      ("headers", .object([("Authorization", .string("Bearer \(web.token)"))]))]))
            try document.save(to: file)
            let consent = ConsentBroker()
            let model = MCPServersModel.make(settings: settings, secrets: SecretStore(), consent: consent, file: file)
            let options = GenerationOptions(temperature: 0, seed: 7, maxTokens: 24)
            let preferences = AppPreferences(settings: settings, secrets: SecretStore(), mcp: model) {
                ChatConnection(endpoint: endpoint, options: options, mcp: MCPTools(hub: model.hub, disabled: settings.disabledMCPTools))
            }
            let app = try GtkTestHarness.launch(endpoint, consent: consent, preferences: preferences)
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.pump(until: { !(model.server(named: "web")?.tools.isEmpty ?? true) }, timeout: .seconds(30),
                                          "the HTTP server ready")
            // The wording MCPCLITests uses: one this base model answers with a call on CI's CPUs.
            try await Xdo.type("Call get_weather().")
            try await Xdo.key("Return")
            try await GtkTestHarness.pump(until: { window.consentDialog != nil }, timeout: .seconds(120), "the model's call to be asked about")
            let question = try #require(window.consentDialog)
            #expect(question.heading == "Run “get_weather”?")
            try await GtkTestHarness.answer(question, "Allow Once")
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, timeout: .seconds(120), "the reply")
            let reply = window.viewModel.conversation[1]
            let row = try #require(window.transcript.boundRow(for: reply.id))
            let line = try #require(row.reply.toolLines.first).summaryText
            #expect(line == "Tool web › get_weather() → sunny, 21 degrees", "\(line)")
            #expect(reply.text.contains("sunny, 21 degrees"), "the model used the answer: \(reply.text)")
            await model.hub.stopAll()
        }
    }
}
