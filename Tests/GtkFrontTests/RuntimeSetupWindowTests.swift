import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// Setting up the local model from the window, as a person does it: the offer in a window
    /// without a runtime, the progress bar through the set-up's phases, Cancel, a failure and
    /// a success. The set-up is Tests/Servers/scripted-install-runtime, which takes each step
    /// only when the test gives it (the real one is tested in RuntimeInstallerTests).
    @MainActor
    @Suite("Setting up the local model (GTK under Xvfb)", .serialized)
    struct RuntimeSetupWindowTests {
        /// A scripted set-up: an empty runtime folder, and the FIFO its steps come through.
        final class ScriptedSetUp {
            let folder: URL
            let runtimeDirectory: URL
            private let steps: Int32

            init() throws {
                folder = FileManager.default.temporaryDirectory.appending(path: "agent-setup-\(UUID().uuidString)")
                runtimeDirectory = folder.appending(path: "runtime")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let fifo = folder.appending(path: "steps").path
                guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EIO) }
                // Read-write, so opening does not wait for the script to open the other end.
                steps = open(fifo, O_RDWR | O_CLOEXEC)
                guard steps >= 0 else { throw POSIXError(.EIO) }
                let script = TiedProcess.serversDirectory.appending(path: "scripted-install-runtime")
                setenv(RuntimeInstallScript.overrideVariable, script.path, 1)
                setenv("AGENT_TEST_INSTALL_STEPS", fifo, 1)
            }

            func step(_ line: String) {
                FileDescriptorWriting.writeAll(Array((line + "\n").utf8), to: steps)
            }

            func end() {
                unsetenv(RuntimeInstallScript.overrideVariable)
                unsetenv("AGENT_TEST_INSTALL_STEPS")
                close(steps)
                try? FileManager.default.removeItem(at: folder)
            }
        }

        static func launch(_ setUp: ScriptedSetUp) async throws -> (AgentApplication, ChatWindow) {
            let connection = ChatConnection(localServer: LocalModelServer(runtimeDirectory: setUp.runtimeDirectory))
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), connection: connection)
            return try await GtkTestHarness.shown(app)
        }

        /// Waits for the bar to be on screen, slid all the way down, and clicks `button` in it.
        static func click(_ button: UnsafeMutablePointer<GtkWidget>, in bar: RuntimeSetupBar) async throws {
            try await GtkTestHarness.pump(until: {
                gtk_revealer_get_child_revealed(bar.widget.opaque) != 0 && GtkTestHarness.isMapped(button)
                    && gtk_widget_get_allocated_width(button) > 0
            }, "the button laid out")
            try await Xdo.click(button)
        }

        static func message(_ bar: RuntimeSetupBar) -> String { GtkTestHarness.label(bar.messageLabel) }

        @Test("Without a runtime the set-up is offered and the window stays usable; the progress bar moves through the phases; Cancel stops the set-up and what it started")
        func offerProgressAndCancel() async throws {
            let setUp = try ScriptedSetUp()
            defer { setUp.end() }
            let (app, window) = try await Self.launch(setUp)
            defer { GtkTestHarness.close(app) }
            let bar = window.chatPage.runtimeSetup
            try await GtkTestHarness.pump(until: { bar.isShown }, "the offer")
            #expect(Self.message(bar).hasPrefix("Set up the local model — about 7 minutes."))
            try await Xdo.type("Still usable")
            try await GtkTestHarness.pump(until: { window.composer.input.text == "Still usable" }, "the typed text")

            try await Self.click(bar.startButton, in: bar)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(bar.cancelButton) }, "Cancel")
            #expect(!GtkTestHarness.isVisible(bar.startButton))
            setUp.step("PROGRESS 0 Creating the environment")
            try await GtkTestHarness.pump(until: { Self.message(bar) == "Creating the environment — 0%" }, "the first phase")
            #expect(GtkTestHarness.isMapped(bar.progressBar))
            setUp.step("PROGRESS 45 Building llama.cpp")
            try await GtkTestHarness.pump(until: { Self.message(bar) == "Building llama.cpp — 45%" }, "the build's progress")
            #expect(gtk_progress_bar_get_fraction(bar.progressBar.opaque) == 0.45)
            let grandchildFile = setUp.folder.appending(path: "grandchild")
            setUp.step("SPAWN \(grandchildFile.path)")
            setUp.step("PROGRESS 46 Building llama.cpp")
            try await GtkTestHarness.pump(until: { Self.message(bar) == "Building llama.cpp — 46%" }, "the build going on")
            let scriptPID = try #require(bar.installer?.pid)
            let grandchild = try #require(pid_t(String(contentsOf: grandchildFile, encoding: .utf8).trimmed))

            try await Self.click(bar.cancelButton, in: bar)
            try await GtkTestHarness.pump(until: { bar.installer?.isRunning == false }, "the set-up to end")
            #expect(kill(scriptPID, 0) != 0, "the script is gone and reaped")
            try await GtkTestHarness.pump(until: { Self.isGone(grandchild) }, "what it started to be gone")
            #expect(bar.isShown, "the set-up is offered again")
            #expect(Self.message(bar).hasPrefix("Set up the local model"))
            #expect(GtkTestHarness.isVisible(bar.startButton))
            #expect(!GtkTestHarness.isVisible(bar.progressBar))
        }

        @Test("With llama-server there and only the model missing, the offer says it downloads the model, in a minute or two")
        func onlyTheModelMissing() async throws {
            let setUp = try ScriptedSetUp()
            defer { setUp.end() }
            try FileManager.default.createDirectory(at: setUp.runtimeDirectory, withIntermediateDirectories: true)
            try Data(#"{"llama_server": "/bin/true", "models": {}}"#.utf8).write(to: setUp.runtimeDirectory.appending(path: "manifest.json"))
            let (app, window) = try await Self.launch(setUp)
            defer { GtkTestHarness.close(app) }
            let bar = window.chatPage.runtimeSetup
            try await GtkTestHarness.pump(until: { bar.isShown }, "the offer")
            #expect(Self.message(bar) == "Set up the local model — a minute or two. Agent downloads SmolLM2-135M-Instruct; the window stays usable meanwhile.")
            let page = window.chatPage.emptyPage
            try await GtkTestHarness.pump(until: { page.title == "The Local Model Is Not Set Up" }, "the model found missing")
            #expect(page.descriptionText.contains("Setting it up (the bar above) downloads SmolLM2-135M-Instruct (a minute or two)"),
                    "\(page.descriptionText)")
        }

        @Test("A failed set-up says so with the end of its log, and offers to try again")
        func failureShowsTheLogTail() async throws {
            let setUp = try ScriptedSetUp()
            defer { setUp.end() }
            let (app, window) = try await Self.launch(setUp)
            defer { GtkTestHarness.close(app) }
            let bar = window.chatPage.runtimeSetup
            try await Self.click(bar.startButton, in: bar)
            setUp.step("PROGRESS 20 Building llama.cpp")
            setUp.step("LOG [ 19%] Building CXX object src/llama.cpp.o")
            setUp.step("LOG c++: fatal error: Killed signal terminated program cc1plus")
            setUp.step("EXIT 1")
            try await GtkTestHarness.pump(until: { Self.message(bar).hasPrefix("The local model could not be set up.") }, "the failure")
            #expect(Self.message(bar).contains("exited with status 1"), "\(Self.message(bar))")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(bar.logLabel) }, "the log's end on screen")
            #expect(GtkTestHarness.label(bar.logLabel).hasSuffix("c++: fatal error: Killed signal terminated program cc1plus"))
            #expect(GtkTestHarness.button("Try Again", in: bar.widget) == bar.startButton)
            #expect(!GtkTestHarness.isVisible(bar.cancelButton))
            #expect(window.alert == nil, "in the window, not in an alert")
        }

        @Test("A finished set-up takes the offer away, and the local model starts")
        func successStartsTheModel() async throws {
            let setUp = try ScriptedSetUp()
            defer { setUp.end() }
            let (app, window) = try await Self.launch(setUp)
            defer { GtkTestHarness.close(app) }
            let bar = window.chatPage.runtimeSetup
            try await GtkTestHarness.pump(until: {
                if case .unavailable = window.viewModel.status.connection { true } else { false }
            }, "the runtime to be found missing")
            try await Self.click(bar.startButton, in: bar)
            setUp.step("PROGRESS 97 Writing the manifest")
            try await GtkTestHarness.pump(until: { Self.message(bar) == "Writing the manifest — 97%" }, "the last phase")
            // The runtime the tests installed stands in for the one the set-up would build.
            setUp.step("MANIFEST \(LocalRuntime.defaultDirectory.appending(path: "manifest.json").path)")
            setUp.step("PROGRESS 100 Done")
            setUp.step("EXIT 0")
            try await GtkTestHarness.pump(until: { !bar.isShown }, "the offer gone")
            try await GtkTestHarness.pump(until: { window.viewModel.status.connection == .ready }, timeout: .seconds(60),
                                          "the local model started")
            #expect(window.chatPage.emptyPage.title == "Chat with SmolLM2-135M-Instruct")
            #expect(window.chatPage.banner.text == nil)
            await window.viewModel.connection.shutdownAndWait()
        }

        @Test("Started as scripts/run starts it (--set-up-local-model), the set-up begins after the first frame without a click")
        func startsWithoutAClickWhenAsked() async throws {
            let setUp = try ScriptedSetUp()
            defer { setUp.end() }
            let connection = ChatConnection(localServer: LocalModelServer(runtimeDirectory: setUp.runtimeDirectory))
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "unused"), connection: connection)
            defer { GtkTestHarness.close(app) }
            app.setsUpLocalModel = true
            let window = try #require(app.window)
            let bar = window.chatPage.runtimeSetup
            #expect(bar.installer == nil, "nothing starts before the window is on screen")
            try await GtkTestHarness.show(window)
            try await GtkTestHarness.pump(until: { bar.installer?.isRunning == true }, "the set-up to start")
            setUp.step("PROGRESS 0 Creating the environment")
            try await GtkTestHarness.pump(until: { Self.message(bar) == "Creating the environment — 0%" }, "its first phase")
            try await Self.click(bar.cancelButton, in: bar)
            try await GtkTestHarness.pump(until: { bar.installer?.isRunning == false }, "the set-up to end")
        }

        /// Gone, or a zombie waiting for whoever adopted it to reap it.
        static func isGone(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return true }
            return stat[stat.index(close, offsetBy: 2)] == "Z"
        }
    }
}
