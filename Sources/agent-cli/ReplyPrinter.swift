import AgentCore
import Foundation
import Synchronization

/// Writes the reply to stdout as it arrives, straight from the transport's thread: one
/// write per update, no hop to another thread per token. Tool activity goes to stderr, and
/// so does a reasoning model's thinking when asked (`--show-reasoning`); stdout has the
/// answer alone. When stdout fails (a full disk, a reader gone), the reply is stopped there.
final class ReplyPrinter: Sendable {
    private let printedAnything = Mutex(false)
    /// Stops the reply; run once, when stdout first fails.
    private let replyStopper = Mutex<(@Sendable () -> Void)?>(nil)
    private let problems = Mutex(false)
    private let showsReasoning: Bool
    /// Whether thinking was written to stderr and its line is still open.
    private let reasoningLineOpen = Mutex(false)

    init(showsReasoning: Bool = false) {
        self.showsReasoning = showsReasoning
    }

    /// What stops the reply when stdout fails.
    func stopReply(with action: @escaping @Sendable () -> Void) {
        replyStopper.withLock { $0 = action }
    }

    /// Whether the turn reported a problem (a tool the model called does not exist).
    var hadProblems: Bool { problems.withLock { $0 } }

    func handle(_ event: ChatTurn.Event) {
        switch event {
        case .reply(let reply):
            print(reply)
        case .toolStarted(let call):
            endReasoningLine()
            AgentCLI.writeError("agent-cli: tool \(call.displayName) \(call.arguments.serialized)")
        case .toolProgress(let call, let progress):
            AgentCLI.writeError("agent-cli: tool \(call.displayName) · \(progress)")
        case .toolFinished(let call):
            AgentCLI.writeError("agent-cli: tool \(call.displayName) → \(call.result ?? "")")
        case .problem(let message):
            problems.withLock { $0 = true }
            AgentCLI.writeError("agent-cli: \(message)")
        }
    }

    func print(_ event: ReplyEvent) {
        if case .reasoning(let thinking) = event {
            guard showsReasoning else { return }
            reasoningLineOpen.withLock { $0 = true }
            FileDescriptorWriting.writeAll(Array(thinking.utf8), to: STDERR_FILENO)
            return
        }
        let text = printedAnything.withLock { printedAnything -> String? in
            guard let text = event.transcriptText(replyIsEmpty: !printedAnything), !text.isEmpty else { return nil }
            printedAnything = true
            return text
        }
        guard let text else { return }
        endReasoningLine()
        write(text)
    }

    /// Ends the reply with a newline, as a terminal expects.
    func finishLine() {
        endReasoningLine()
        write("\n")
    }

    /// Ends the thinking on stderr with a newline once something else follows it.
    private func endReasoningLine() {
        let wasOpen = reasoningLineOpen.withLock { open in
            defer { open = false }
            return open
        }
        if wasOpen { FileDescriptorWriting.writeAll(Array("\n".utf8), to: STDERR_FILENO) }
    }

    private func write(_ text: String) {
        guard !StandardStreams.write(text) else { return }
        let stop = replyStopper.withLock { action in
            defer { action = nil }
            return action
        }
        stop?()
    }
}
