import Glibc
import CProcess
import FoundationEssentials
import Synchronization

/// The app's own model server: llama.cpp's `llama-server` on a free 127.0.0.1 port,
/// started on first use and stopped on quit. The child is tied to this process, so even
/// a `kill -9` of the app leaves no orphan; it is restarted if it dies between requests.
/// Nothing here polls or sleeps: `LocalModelProcess` learns of readiness and of the end as
/// they happen.
@MainActor
public final class LocalModelServer {
    public let model: LocalModel
    /// CPU threads llama-server computes with.
    public let threads: Int
    /// Where its runtime (llama-server and the model files) is installed.
    public let runtimeDirectory: URL
    private let extraArguments: [String]
    private var process: LocalModelProcess?
    private var endpointIfRunning: ChatEndpoint?
    private var starting: Task<ChatEndpoint, any Error>?
    /// How long the model may take to load.
    private let startTimeout: Duration
    /// What the running server said at `/props`; nil until it is ready.
    public private(set) var props: ServerProps?
    /// The longest reply the running server writes (its `--n-predict`); nil until started.
    public private(set) var longestReply: Int?

    /// The most context Agent gives a model, whatever it was trained for. The KV cache grows
    /// with the context: at 16k tokens a 7–8B model's takes about 2 GB (f16), at the 128k
    /// some models allow, 16 GB — more than most desktops have to spare. And a CPU needs
    /// minutes to read a prompt of 16k tokens anyway.
    public static let contextCap = 16384
    /// How long the server may send nothing before a request is given up.
    public static let idleTimeout = Duration.seconds(600)
    /// The context for a file that does not state its own.
    public static let fallbackContext = 4096

    /// `threads`: nil for one per core.
    public init(model: LocalModel = .smolLM2, runtimeDirectory: URL = LocalRuntime.defaultDirectory, threads: Int? = nil,
                extraArguments: [String] = [], startTimeout: Duration = .seconds(120)) {
        self.model = model
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        self.runtimeDirectory = runtimeDirectory
        self.extraArguments = extraArguments
        self.startTimeout = startTimeout
    }

    /// A server like this one (the same runtime and arguments) for `model`; not started.
    public func serving(_ model: LocalModel) -> LocalModelServer {
        LocalModelServer(model: model, runtimeDirectory: runtimeDirectory, threads: threads, extraArguments: extraArguments,
                         startTimeout: startTimeout)
    }

    /// Whether `other` runs llama-server as this one does: the same model, threads, runtime
    /// and arguments — either may take the other's place.
    public func runsLike(_ other: LocalModelServer) -> Bool {
        model == other.model && threads == other.threads && runtimeDirectory == other.runtimeDirectory
            && extraArguments == other.extraArguments && startTimeout == other.startTimeout
    }

    /// The running server's process, for tests and diagnostics.
    public var pid: pid_t? { process.flatMap { $0.hasEnded ? nil : $0.pid } }

    /// Where the server's output goes.
    public var logFile: URL { AppIdentity.cacheDirectory.appending(path: "llama-server.log") }

    /// The server's endpoint, starting (or restarting) the server when it is not running.
    /// A caller that is cancelled (Stop) stops waiting at once; the start goes on for others.
    public func endpoint() async throws -> ChatEndpoint {
        if let endpointIfRunning, process?.hasEnded == false { return endpointIfRunning }
        if let starting { return try await Self.value(of: starting) }
        let task = Task { try await self.launch() }
        starting = task
        // The start is forgotten when it ends, not when a caller stops waiting: a second
        // caller must join it rather than start another server.
        Task {
            _ = await task.result
            if starting == task { starting = nil }
        }
        return try await Self.value(of: task)
    }

    /// The start's result, or `CancellationError` as soon as the calling task is cancelled.
    private static func value(of start: Task<ChatEndpoint, any Error>) async throws -> ChatEndpoint {
        let waiter = Mutex<CheckedContinuation<ChatEndpoint, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ChatEndpoint, any Error>) in
                waiter.withLock { $0 = continuation }
                if Task.isCancelled { waiter.withLock { $0.take() }?.resume(throwing: CancellationError()) }
                Task {
                    let result = await start.result
                    waiter.withLock { $0.take() }?.resume(with: result)
                }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    /// How many tokens of conversation a request to the running server may carry: its real
    /// context (from `/props`) less the longest reply (`maxTokens` when shorter than the
    /// server's own limit) and a margin. nil until the server is up.
    public func contextBudget(maxTokens: Int?) -> Int? {
        guard let props, let longestReply else { return nil }
        return props.contextBudget(longestReply: min(longestReply, maxTokens ?? longestReply))
    }

    /// The context llama-server is started with: the model's own, at most `contextCap`.
    public static func contextSize(trainedFor trained: Int?) -> Int {
        min(contextCap, max(512, trained ?? fallbackContext))
    }

    /// The longest reply for a context: a quarter of it, at most 1024 tokens, so that most
    /// of the context stays for the conversation.
    public static func longestReply(forContext context: Int) -> Int {
        min(1024, context / 4)
    }

    /// Stops the server: a start under way is given up, a running server is asked to end
    /// (and killed if it has not within two seconds). Returns at once.
    public func stop() {
        starting?.cancel()
        starting = nil
        process?.terminate()
        process = nil
        endpointIfRunning = nil
        props = nil
    }

    /// Stops the server and waits (at most three seconds) until its process has ended and
    /// been reaped.
    public func stopAndWait() async {
        let running = process
        stop()
        _ = await running?.waitForEnd(timeout: .seconds(3))
    }

    /// When the server has died on its own since the last request: how it ended (once).
    /// A process's sockets close before it can be reaped, so a reply cut off by a crash
    /// may be seen first: this waits up to `grace` for the end to be noticed.
    public func takeUnexpectedEnd(grace: Duration = .milliseconds(500)) async -> ChildExit.End? {
        guard let process else { return nil }
        guard await process.waitForEnd(timeout: grace) != nil, let end = process.unexpectedEnd else { return nil }
        if self.process === process {
            self.process = nil
            endpointIfRunning = nil
        }
        return end
    }

    private func launch() async throws -> ChatEndpoint {
        let runtime = try LocalRuntime.locate(in: runtimeDirectory)
        let modelFile = try runtime.modelFile(for: model)
        let header: GGUFHeader
        do {
            header = try GGUFHeader.read(modelFile)
        } catch {
            throw ChatError.localModel(error.description)
        }
        let port = agent_free_loopback_port()
        guard port > 0 else { throw ChatError.localModel(tr("No free TCP port on 127.0.0.1 for the local model server.")) }
        let context = Self.contextSize(trainedFor: header.contextLength)
        let replyLimit = Self.longestReply(forContext: context)
        // Without --chat-template-file, --jinja applies the template the file carries.
        var arguments = [runtime.serverExecutable.path,
                         "--host", "127.0.0.1", "--port", String(port),
                         "--model", modelFile.path, "--alias", model.displayName,
                         "--ctx-size", String(context), "--parallel", "1", "--threads", String(threads),
                         "--n-predict", String(replyLimit), "--jinja", "--no-webui"]
        if let template = model.chatTemplate {
            guard let file = ResourceLocator.file(named: template) else {
                // TRANSLATORS: %1$s is a file's name, %2$s a model's name.
                throw ChatError.localModel(tr("The chat template %1$s for %2$s is missing from Agent's resources.", template, model.displayName))
            }
            arguments += ["--chat-template-file", file.path]
        }
        arguments += extraArguments
        try PrivateFiles.makeDirectory(logFile.deletingLastPathComponent())
        let logDescriptor = LocalModelLog.open(logFile, heading: "\(Date().formatted(.iso8601)) llama-server for \(model.displayName)")
        var pipe: [Int32] = [-1, -1]
        let props: ServerProps
        guard logDescriptor >= 0, agent_cloexec_pipe(&pipe) == 0 else {
            if logDescriptor >= 0 { close(logDescriptor) }
            // TRANSLATORS: %1$s is a file's path, %2$s the system's reason.
            throw ChatError.localModel(tr("Could not open the local model's log %1$s: %2$s", logFile.path, String(cString: strerror(errno))))
        }
        let pid: pid_t
        do {
            pid = try await TiedChildLauncher.shared.spawn(arguments, output: pipe[1])
        } catch {
            close(pipe[0])
            close(pipe[1])
            close(logDescriptor)
            // TRANSLATORS: %1$s is a program's path, %2$s the reason.
            throw ChatError.localModel(tr("Could not start %1$s: %2$s", runtime.serverExecutable.path, ChatError.describe(error)))
        }
        close(pipe[1])
        let started = LocalModelProcess(pid: pid, output: pipe[0], log: logDescriptor, readyWithin: startTimeout)
        // Given up (stop()) while the process was being spawned: it is not this server's.
        if Task.isCancelled {
            started.terminate()
            throw CancellationError()
        }
        process = started
        var endpoint = ChatEndpoint(serverURL: "http://127.0.0.1:\(port)", model: model.displayName)
        // Reading a long prompt on a CPU can take minutes with nothing sent meanwhile; the
        // process is watched, so its death is noticed at once whatever the wait.
        endpoint.idleTimeout = Self.idleTimeout
        do {
            try await started.waitUntilReady()
            try await confirmHealthy(endpoint)
            props = try await ServerProps.fetch(from: endpoint.serverURL)
        } catch {
            started.terminate()
            if process === started { process = nil }
            switch error {
            case LocalModelProcess.Failure.ended(let end):
                switch end {
                // TRANSLATORS: %1$s is an exit status (a number); %2$s the end of the server's log, in lines of their own.
                case .exited(let status): throw ChatError.localModel(tr("The local model server exited with status %1$s while starting.\n%2$s", String(status), logTail()))
                // A build for another processor's instructions (or a compiler's bad code for them).
                // TRANSLATORS: %1$s is a command; %2$s the end of the server's log, in lines of their own.
                case .killed(SIGILL): throw ChatError.localModel(tr("The local model server stopped at an instruction this processor does not run (signal 4) while starting. Build it again for this computer with: %1$s   (in Agent's source folder: scripts/install-runtime)\n%2$s", LocalRuntime.installCommand, logTail()))
                // TRANSLATORS: %1$s is a signal's number; %2$s the end of the server's log, in lines of their own.
                case .killed(let signal): throw ChatError.localModel(tr("The local model server was killed by signal %1$s while starting.\n%2$s", String(signal), logTail()))
                // TRANSLATORS: %s is the end of the server's log, in lines of their own.
                case .stopped: throw ChatError.localModel(tr("The local model server was stopped while starting.\n%s", logTail()))
                }
            case LocalModelProcess.Failure.timedOut:
                let seconds = Int(startTimeout.components.seconds)
                // TRANSLATORS: %s is the end of the server's log, in lines of their own.
                throw ChatError.localModel(trn("The local model server did not become ready within %d second.\n%s",
                                               "The local model server did not become ready within %d seconds.\n%s", seconds, logTail()))
            default:
                throw error
            }
        }
        guard process === started else {
            started.terminate()
            throw CancellationError()
        }
        self.props = props
        longestReply = replyLimit
        endpointIfRunning = endpoint
        return endpoint
    }

    /// Once it says the model is loaded, `/health` must agree (one request).
    private func confirmHealthy(_ endpoint: ChatEndpoint) async throws {
        let health = HTTPRequest(url: endpoint.serverURL + "/health", connectTimeout: .seconds(2), totalTimeout: .seconds(5))
        let response = try await HTTPClient.fetch(health)
        guard response.head.status == 200 else {
            // TRANSLATORS: %1$s is an HTTP status code; %2$s the end of the server's log, in lines of their own.
            throw ChatError.localModel(tr("The local model server said it was ready, but /health answered HTTP %1$s.\n%2$s",
                                          String(response.head.status), logTail()))
        }
    }

    private func logTail() -> String {
        guard let data = try? Data(contentsOf: logFile) else { return "" }
        let lines = String(decoding: data.suffix(4096), as: UTF8.self).split(separator: "\n").suffix(8)
        // TRANSLATORS: %s is a file's path; the log's last lines follow, in English.
        return tr("Its log (%s) ends with:", logFile.path) + "\n" + lines.joined(separator: "\n")
    }
}
