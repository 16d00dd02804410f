import AgentCore
import Foundation
import Synchronization

/// `--pull NAME` and `--delete NAME`: an Ollama server's models from the terminal. The pull's
/// progress goes to stderr — redrawn in place on a terminal, a line per change otherwise.
enum CLIOllama {
    /// Where Ollama listens unless `--server` says otherwise.
    static let defaultServer = "http://127.0.0.1:11434"

    /// Runs the pull or the delete the options ask for, then exits: 0 done, 1 failed, 130 interrupted.
    @MainActor
    static func run(_ options: LaunchOptions) async -> Never {
        guard options.words.isEmpty else { AgentCLI.fail(usage: tr("--pull and --delete take no prompt")) }
        guard options.pullModel == nil || options.deleteModel == nil else { AgentCLI.fail(usage: tr("give --pull or --delete, not both")) }
        guard options.protocolKind != .llmtools else { AgentCLI.fail(usage: tr("--pull and --delete manage an Ollama server's models")) }
        var ollama = options
        ollama.server = options.server ?? defaultServer
        ollama.protocolKind = .ollama
        let endpoint: ChatEndpoint
        do {
            guard let named = try ollama.endpoint() else { AgentCLI.fail(usage: tr("--pull and --delete need a server")) }
            endpoint = named
        } catch {
            AgentCLI.fail(usage: error.message)
        }
        let manager = OllamaModelManager(endpoint: endpoint)
        let line = ProgressLine()
        let work = Task { @MainActor in
            if let name = options.pullModel {
                try await manager.pull(name) { progress in line.show(progress) }
                line.finish()
                // TRANSLATORS: %s is the name of a model downloaded onto an Ollama server.
                AgentCLI.writeError("agent-cli: " + tr("pulled %s", name))
            } else if let name = options.deleteModel {
                try await manager.delete(name)
                // TRANSLATORS: %s is the name of a model deleted from an Ollama server.
                AgentCLI.writeError("agent-cli: " + tr("deleted %s", name))
            }
        }
        signal(SIGINT, SIG_IGN)
        let interruption = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interruption.setEventHandler { work.cancel() }
        interruption.resume()
        let result = await work.result
        line.finish()
        switch result {
        case .success:
            AgentCLI.exit(0)
        case .failure(is CancellationError):
            // TRANSLATORS: %s is a model's name.
            AgentCLI.writeError("agent-cli: " + tr("interrupted; the pull of %s stopped", options.pullModel ?? ""))
            AgentCLI.exit(130)
        case .failure(let error):
            AgentCLI.writeFailure(ChatError.describe(error))
            AgentCLI.exit(1)
        }
    }

    /// The pull's progress on stderr: "pulling 6e4c38e1172f  45%  1.2 GB of 2.5 GB · 35.0 MB/s",
    /// written from the transfer's thread as it arrives.
    private final class ProgressLine: Sendable {
        private struct State {
            var lastStep = ""
            var open = false
        }

        private let isTerminal = isatty(STDERR_FILENO) != 0
        private let state = Mutex(State())

        func show(_ progress: OllamaPullProgress) {
            let step = [progress.status, progress.percentText].compactMap { $0 }.joined(separator: "  ")
            let text = [step, progress.bytesText].compactMap { $0 }.joined(separator: "  ")
            state.withLock { state in
                if isTerminal {
                    StandardStreams.writeError("\r\u{1B}[K\(text)")
                    state.open = true
                } else if step != state.lastStep {
                    // A line per step of status or whole percent, not per byte count.
                    state.lastStep = step
                    AgentCLI.writeError(text)
                }
            }
        }

        /// Ends a line redrawn in place.
        func finish() {
            let wasOpen = state.withLock { state in
                defer { state.open = false }
                return state.open
            }
            if wasOpen { StandardStreams.writeError("\n") }
        }
    }
}
