import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// The writes quitting waits for, and the limit on that wait, on GLib's main loop.
    @MainActor
    @Suite("Work quitting waits for (GTK under Xvfb)", .serialized)
    struct UnfinishedWorkTests {
        /// Lets a test end a piece of work when it chooses.
        final class Gate {
            var continuation: CheckedContinuation<Void, Never>?
            func open() { continuation?.resume(); continuation = nil }
        }

        @Test("Waiting ends when the last work ends, once; work that never ends is given up at the limit; a window of no app's does not hold")
        func waitsForWorkUpToTheLimit() async throws {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url("echo"), model: "m"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let key = UnsafeMutableRawPointer(app.application)

            // Work that ends: the wait ends with it, well before its limit, and only once.
            let gate = Gate()
            var ended = false
            UnfinishedWork.run(from: window.window) {
                await withCheckedContinuation { gate.continuation = $0 }
                ended = true
            }
            #expect(UnfinishedWork.isRunning(in: key))
            var calls = 0
            UnfinishedWork.finish(in: key, within: .seconds(2)) { calls += 1 }
            try await GtkTestHarness.pump(for: .milliseconds(200))
            #expect(calls == 0, "the work still runs")
            try await GtkTestHarness.pump(until: { gate.continuation != nil }, "the work to wait")
            gate.open()
            try await GtkTestHarness.pump(until: { ended && calls == 1 }, "the wait to end with the work")
            #expect(!UnfinishedWork.isRunning(in: key))
            try await GtkTestHarness.pump(for: .milliseconds(2500))
            #expect(calls == 1, "the limit, passed since, did not call it again")

            // Work that does not end: the wait is given up at the limit.
            let stuck = Gate()
            UnfinishedWork.run(from: window.window) { await withCheckedContinuation { stuck.continuation = $0 } }
            let asked = ContinuousClock.now
            var givenUpAfter: Duration?
            UnfinishedWork.finish(in: key, within: .milliseconds(300)) { givenUpAfter = ContinuousClock.now - asked }
            try await GtkTestHarness.pump(until: { givenUpAfter != nil }, "the limit")
            #expect((givenUpAfter ?? .zero) >= .milliseconds(300))
            #expect(UnfinishedWork.isRunning(in: key), "the work itself goes on")
            try await GtkTestHarness.pump(until: { stuck.continuation != nil }, "the stuck work to wait")
            stuck.open()
            try await GtkTestHarness.pump(until: { !UnfinishedWork.isRunning(in: key) }, "the stuck work to end")

            // Out of any application's window: the work runs, nothing is held or waited for.
            let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new("alone")
            g_object_ref_sink(label.raw)
            defer { g_object_unref(label.raw) }
            var ran = false
            UnfinishedWork.run(from: label) { ran = true }
            #expect(!UnfinishedWork.isRunning(in: key))
            try await GtkTestHarness.pump(until: { ran }, "the work without an app")
        }
    }
}
