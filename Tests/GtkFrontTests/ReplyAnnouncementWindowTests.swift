import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// What a screen reader is told when a reply finishes, read through AT-SPI by another
    /// process as a screen reader reads it (Tests/Servers/atspi_status_watch.py).
    @MainActor
    @Suite("A finished reply announced to screen readers (GTK under Xvfb, AT-SPI)", .serialized)
    struct ReplyAnnouncementWindowTests {
        /// What the watcher prints.
        struct Seen: Decodable {
            struct Found: Decodable {
                let role: String
                let name: String
            }

            struct Event: Decodable {
                let type: String
                let name: String
            }

            let found: Found?
            let events: [Event]
        }

        @Test("A finished reply is told to screen readers in plain words: AT-SPI shows a status bar named “Reply from test-model finished: …” and reports its name change")
        func announcement() async throws {
            let (app, window) = try await GtkTestHarness.shown(GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url("markdown"), model: "m")))
            defer { GtkTestHarness.close(app) }
            let ready = FileManager.default.temporaryDirectory.appending(path: "agent-atspi-ready-\(UUID())")
            defer { try? FileManager.default.removeItem(at: ready) }
            let watcher = Process()
            watcher.executableURL = URL(filePath: "/usr/bin/python3")
            watcher.arguments = [TiedProcess.serversDirectory.appending(path: "atspi_status_watch.py").path, String(getpid()),
                                 "Reply from test-model finished", ready.path, "60"]
            let output = Pipe()
            watcher.standardOutput = output
            try watcher.run()
            async let printed = ProductRunner.readToEnd(output.fileHandleForReading)
            try await GtkTestHarness.pump(until: { FileManager.default.fileExists(atPath: ready.path) || !watcher.isRunning },
                                          "the screen reader's side to listen")
            try await GtkTestHarness.send("a string", in: window, settling: true)
            let announced = window.chatPage.announcer.text
            #expect(announced.hasPrefix("Reply from test-model finished: Reversing a string Use reversed() — it works on any sequence: let word"),
                    "plain words: \(announced)")
            #expect(!announced.contains("**") && !announced.contains("##") && !announced.contains("```"))
            try await GtkTestHarness.pump(until: { !watcher.isRunning }, timeout: .seconds(70), "the status bar seen through AT-SPI")
            let printedText = await printed
            #expect(watcher.terminationStatus == 0, "AT-SPI: \(String(decoding: printedText, as: UTF8.self))")
            let seen = try JSONDecoder().decode(Seen.self, from: printedText)
            #expect(seen.found?.role == "status bar" && seen.found?.name == announced, "the status bar: \(String(describing: seen.found))")
            #expect(seen.events.contains { $0.type == "object:property-change:accessible-name" && $0.name == announced },
                    "the name change reported: \(seen.events)")
        }
    }
}
