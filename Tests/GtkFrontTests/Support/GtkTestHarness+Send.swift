@testable import GtkFront

extension GtkTestHarness {
    /// Types `text` into the focused entry and presses Return, as a person sends a message,
    /// then waits for the reply to end; with `settling`, also for the transcript to settle.
    @MainActor
    static func send(_ text: String, in window: ChatWindow, timeout: Duration = .seconds(20), settling: Bool = false) async throws {
        let count = window.viewModel.conversation.count
        try await Xdo.type(text)
        try await Xdo.key("Return")
        try await pump(until: { !window.viewModel.isSending && window.viewModel.conversation.count >= count + 2 },
                       timeout: timeout, "the reply to “\(text)”")
        if settling { try await settle(window) }
    }
}
