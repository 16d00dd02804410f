import Glibc
import FoundationEssentials

/// Sets up the local model runtime from the window: runs the install script
/// (`RuntimeInstallScript`) behind it, follows its progress, can be cancelled, and says
/// why when it fails (with the end of its log). One run at a time; a failed or cancelled
/// set-up can be started again.
@MainActor
public final class RuntimeInstaller {
    public enum State: Equatable, Sendable {
        /// Not started (or cancelled): the set-up is offered.
        case idle
        case running(RuntimeInstallProgress)
        /// Cancel was asked for; the script and what it started are ending.
        case cancelling
        /// It failed: why, and the end of its log.
        case failed(reason: String, logTail: String)
        /// The runtime is installed.
        case finished
    }

    public private(set) var state = State.idle {
        didSet { if state != oldValue { onChange?() } }
    }

    /// Told of every change of `state`.
    public var onChange: (() -> Void)?
    public let runtimeDirectory: URL
    /// The model the set-up must install (Gemma needs an option of the script).
    public let model: LocalModel
    /// The script's output besides its progress.
    public let logFile: URL
    private let script: URL?
    private var process: RuntimeInstallProcess?
    private var cancelled = false
    /// The run's end has been handled (it can come before the spawn's result is back).
    private var ended = false
    /// What setting up `model` in `runtimeDirectory` does and takes on two cores, as offered:
    /// llama.cpp built the first time; with llama-server there already, only the model downloaded.
    public static func plan(for model: LocalModel, in runtimeDirectory: URL) -> (work: String, duration: String) {
        (try? LocalRuntime.locate(in: runtimeDirectory)) == nil
            // TRANSLATORS: what setting up the local model does, and how long it takes, as offered to the user.
            ? (tr("builds llama.cpp on this computer"), tr("about 7 minutes"))
            // TRANSLATORS: %s is a model's name; what setting up the local model does, and how long it takes.
            : (tr("downloads %s", model.displayName), tr("a minute or two"))
    }

    public init(runtimeDirectory: URL, model: LocalModel, script: URL? = RuntimeInstallScript.locate(),
                logFile: URL = AppIdentity.cacheDirectory.appending(path: "install-runtime.log")) {
        self.runtimeDirectory = runtimeDirectory
        self.model = model
        self.script = script
        self.logFile = logFile
    }

    /// The script's process while it runs, for tests and diagnostics.
    public var pid: pid_t? { process?.pid }

    public var isRunning: Bool {
        switch state {
        case .running, .cancelling: true
        case .idle, .failed, .finished: false
        }
    }

    /// Starts the set-up (unless it runs already or is done).
    public func start() {
        guard !isRunning, state != .finished else { return }
        guard let script else {
            // TRANSLATORS: %s is a program's name.
            state = .failed(reason: tr("The set-up script (%s) was not found beside Agent's program or in its source folder.",
                                       RuntimeInstallScript.installedName), logTail: "")
            return
        }
        cancelled = false
        ended = false
        // TRANSLATORS: the local model's set-up, before the script reports its first step.
        state = .running(RuntimeInstallProgress(percent: 0, phase: tr("Starting")))
        var environment = ProcessInfo.processInfo.environment
        environment["AGENT_RUNTIME_DIR"] = runtimeDirectory.path
        let variables = environment.map { "\($0.key)=\($0.value)" }
        let relay = MainActorRelay<RuntimeInstallProcess.Event> { [weak self] events in
            for event in events { self?.handle(event) }
        }
        let options = model.installOption.map { [$0] } ?? []
        Task {
            do {
                let started = try await RuntimeInstallProcess.start(script: script, options: options, environment: variables,
                                                                    log: logFile) { relay.push($0) }
                guard !ended else { return }
                process = started
                if cancelled { started.cancel() }
            } catch {
                state = .failed(reason: ChatError.describe(error), logTail: "")
            }
        }
    }

    /// Stops the set-up and what it started; the offer comes back once they have ended.
    public func cancel() {
        guard isRunning else { return }
        cancelled = true
        state = .cancelling
        process?.cancel()
    }

    private func handle(_ event: RuntimeInstallProcess.Event) {
        switch event {
        case .progress(let progress):
            if case .running = state { state = .running(progress) }
        case .ended(let status, let tail):
            ended = true
            process = nil
            if cancelled {
                state = .idle
            } else if status != 0 {
                state = .failed(reason: Self.failure(ChildExit.end(status), log: logFile.path), logTail: tail)
            } else if let runtime = try? LocalRuntime.locate(in: runtimeDirectory), runtime.has(model) {
                state = .finished
            } else {
                // TRANSLATORS: %1$s is a folder's path, %2$s a file's path.
                state = .failed(reason: tr("The set-up ended, but the local model is still not installed in %1$s. Its log: %2$s",
                                           runtimeDirectory.path, logFile.path), logTail: tail)
            }
        }
    }

    /// Why the set-up failed, from how its script ended.
    private static func failure(_ end: ChildExit.End, log: String) -> String {
        switch end {
        // TRANSLATORS: %1$s is an exit status (a number), %2$s a file's path.
        case .exited(let status): tr("The set-up exited with status %1$s. Its log: %2$s", String(status), log)
        // TRANSLATORS: %1$s is a signal's number, %2$s a file's path.
        case .killed(let signal): tr("The set-up was killed by signal %1$s. Its log: %2$s", String(signal), log)
        // TRANSLATORS: %s is a file's path.
        case .stopped: tr("The set-up was stopped. Its log: %s", log)
        }
    }
}
