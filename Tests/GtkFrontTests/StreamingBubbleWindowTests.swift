@testable import AgentCore
import CGtk
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A reply's bubble while it streams, under Xvfb.
    @MainActor
    @Suite("A streaming reply's bubble (GTK under Xvfb)", .serialized)
    struct StreamingBubbleWindowTests {
        typealias Size = (width: Int32, height: Int32)

        @Test("A short reply's bubble grows with its words on one line, and is as wide when it finishes: it does not narrow")
        func shortReplyKeepsItsWidth() async throws {
            let (sizes, final) = try await bubbleSizes(replying: "slow-60")
            expectGrowing(sizes.map(\.width), to: final.width, seen: 5)
            #expect(sizes.allSatisfy { abs($0.height - final.height) <= 2 }, "one line all along, \(final.height) px: \(sizes.map(\.height))")
        }

        @Test("A reply of short lines in several blocks (a list among them) is no wider while it streams than when it ends: it grows, never narrowing")
        func shortLinesKeepTheirWidth() async throws {
            let (sizes, final) = try await bubbleSizes(replying: "lines-60")
            expectGrowing(sizes.map(\.width), to: final.width, seen: 10)
        }

        /// The bubble's widths as the reply streamed, seen at least `samples` times: narrow at
        /// the first words, growing, never narrowing, and never wider than `final`, its width
        /// once the reply has ended.
        private func expectGrowing(_ widths: [Int32], to final: Int32, seen samples: Int) {
            #expect(widths.count >= samples, "the bubble seen as the reply streamed: \(widths)")
            #expect(widths.first.map { $0 < final - 100 } == true, "narrow at the first words: \(widths)")
            #expect(widths.allSatisfy { $0 <= final + 2 }, "never wider than it ends, \(final) px: \(widths)")
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 <= $1 }, "growing, never narrowing: \(widths)")
        }

        /// The reply bubble's size at each turn of the main loop while `scenario`'s reply to
        /// "Hi" streams, and once it has finished.
        private func bubbleSizes(replying scenario: String) async throws -> (streaming: [Size], final: Size) {
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: TestServer.shared.url(scenario), model: "m"))
            defer { GtkTestHarness.close(app) }
            let window = try #require(app.window)
            try await GtkTestHarness.show(window)
            let model = window.viewModel
            try await Xdo.type("Hi")
            try await Xdo.key("Return")
            var sizes: [Size] = []
            try await GtkTestHarness.pump(until: {
                if model.conversation.count == 2, model.isSending, !model.conversation[1].text.isEmpty,
                   let row = window.transcript.boundRow(for: model.conversation[1].id), GtkTestHarness.isMapped(row.bubble) {
                    sizes.append((gtk_widget_get_width(row.bubble), gtk_widget_get_height(row.bubble)))
                }
                return !model.isSending && model.conversation.count == 2
            }, "the reply")
            try await GtkTestHarness.settle(window)
            let row = try #require(window.transcript.boundRow(for: model.conversation[1].id))
            return (sizes, (gtk_widget_get_width(row.bubble), gtk_widget_get_height(row.bubble)))
        }
    }
}
