import Foundation

/// Ctrl+C (SIGINT) for the part of agent-cli's run that may ask on the terminal: caught from
/// before the first question (an MCP server's launch, asked at start-up) to the end. It answers
/// No to the question open and to any asked later (`TerminalConsent`), and stops the work the
/// run waits for — at once, when that work begins after the Ctrl+C. The run then ends with
/// status 130, as its end tells.
@MainActor
final class CLIInterruption {
    /// Ctrl+C came.
    private(set) var happened = false
    private var stopWork: (() -> Void)?
    private let source: any DispatchSourceSignal

    /// Takes SIGINT from its default action (the end of the process); returns once it is
    /// caught: the source is registered in the background, and a Ctrl+C before that is lost.
    init() async {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        source.setEventHandler { [weak self] in self?.interrupt() }
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            source.setRegistrationHandler { registered.resume() }
            source.resume()
        }
    }

    /// `stop` stops the work the run waits for: run at Ctrl+C, or now if it came already.
    func stops(with stop: @escaping () -> Void) {
        stopWork = stop
        if happened { stop() }
    }

    private func interrupt() {
        happened = true
        // The work first: a question that wakes must find it stopped.
        stopWork?()
        TerminalConsent.stop()
    }
}
