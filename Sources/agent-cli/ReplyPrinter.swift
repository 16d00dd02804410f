import AgentCore
import Foundation
import Synchronization

/// Writes the reply to stdout as it arrives, straight from the transport's thread: one
/// write per update, no hop to another thread per token. Tool activity goes to stderr.
final class ReplyPrinter: Sendable {
    private let printedAnything = Mutex(false)
    private let problems = Mutex(false)

    /// Whether the turn reported a problem (a tool the model called does not exist).
    var hadProblems: Bool { problems.withLock { $0 } }

    func handle(_ event: ChatTurn.Event) {
        switch event {
        case .reply(let reply):
            print(reply)
        case .toolStarted(let call):
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
        let text = printedAnything.withLock { printedAnything -> String? in
            guard let text = event.transcriptText(replyIsEmpty: !printedAnything) else { return nil }
            if !text.isEmpty { printedAnything = true }
            return text
        }
        if let text { write(Array(text.utf8)) }
    }

    /// Ends the reply with a newline, as a terminal expects.
    func finishLine() {
        write(Array("\n".utf8))
    }

    private func write(_ bytes: [UInt8]) {
        FileDescriptorWriting.writeAll(bytes, to: STDOUT_FILENO)
    }
}
