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
    private let runtimeDirectory: URL
    private let extraArguments: [String]
    private var process: LocalModelProcess?
    private var endpointIfRunning: ChatEndpoint?
    private var starting: Task<ChatEndpoint, any Error>?
    /// How long the model may take to load.
    private let startTimeout: Duration

    public init(model: LocalModel = .smolLM2, runtimeDirectory: URL = LocalRuntime.defaultDirectory,
                extraArguments: [String] = [], startTimeout: Duration = .seconds(120)) {
        self.model = model
        self.runtimeDirectory = runtimeDirectory
        self.extraArguments = extraArguments
        self.startTimeout = startTimeout
    }

    /// A server like this one (the same runtime and arguments) for `model`; not started.
    public func serving(_ model: LocalModel) -> LocalModelServer {
        LocalModelServer(model: model, runtimeDirectory: runtimeDirectory, extraArguments: extraArguments, startTimeout: startTimeout)
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

    /// Stops the server: a start under way is given up, a running server is asked to end
    /// (and killed if it has not within two seconds). Returns at once.
    public func stop() {
        starting?.cancel()
        starting = nil
        process?.terminate()
        process = nil
        endpointIfRunning = nil
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
    public func takeUnexpectedEnd(grace: Duration = .milliseconds(500)) async -> String? {
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
        let port = agent_free_loopback_port()
        guard port > 0 else { throw ChatError.localModel("No free TCP port on 127.0.0.1 for the local model server.") }
        let threads = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        var arguments = [runtime.serverExecutable.path,
                         "--host", "127.0.0.1", "--port", String(port),
                         "--model", modelFile.path, "--alias", model.displayName,
                         "--ctx-size", "4096", "--parallel", "1", "--threads", String(threads),
                         "--n-predict", "512", "--jinja", "--no-webui"]
        if let template = model.chatTemplate {
            guard let file = ResourceLocator.file(named: template) else {
                throw ChatError.localModel("The chat template \(template) for \(model.displayName) is missing from Agent's resources.")
            }
            arguments += ["--chat-template-file", file.path]
        }
        arguments += extraArguments
        try PrivateFiles.makeDirectory(logFile.deletingLastPathComponent())
        let logDescriptor = open(logFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        var pipe: [Int32] = [-1, -1]
        guard logDescriptor >= 0, agent_cloexec_pipe(&pipe) == 0 else {
            if logDescriptor >= 0 { close(logDescriptor) }
            throw ChatError.localModel("Could not open the local model's log \(logFile.path): \(String(cString: strerror(errno)))")
        }
        fchmod(logDescriptor, 0o600)
        let pid: pid_t
        do {
            pid = try await TiedChildLauncher.shared.spawn(arguments, output: pipe[1])
        } catch {
            close(pipe[0])
            close(pipe[1])
            close(logDescriptor)
            throw ChatError.localModel("Could not start \(runtime.serverExecutable.path): \(ChatError.describe(error))")
        }
        close(pipe[1])
        let started = LocalModelProcess(pid: pid, output: pipe[0], log: logDescriptor, readyWithin: startTimeout)
        // Given up (stop()) while the process was being spawned: it is not this server's.
        if Task.isCancelled {
            started.terminate()
            throw CancellationError()
        }
        process = started
        let endpoint = ChatEndpoint(serverURL: "http://127.0.0.1:\(port)", model: model.displayName)
        do {
            try await started.waitUntilReady()
            try await confirmHealthy(endpoint)
        } catch {
            started.terminate()
            if process === started { process = nil }
            switch error {
            case LocalModelProcess.Failure.ended(let end):
                throw ChatError.localModel("The local model server \(end) while starting.\n\(logTail())")
            case LocalModelProcess.Failure.timedOut:
                throw ChatError.localModel("The local model server did not become ready within \(startTimeout.components.seconds) seconds.\n\(logTail())")
            default:
                throw error
            }
        }
        guard process === started else {
            started.terminate()
            throw CancellationError()
        }
        endpointIfRunning = endpoint
        return endpoint
    }

    /// Once it says the model is loaded, `/health` must agree (one request).
    private func confirmHealthy(_ endpoint: ChatEndpoint) async throws {
        let health = HTTPRequest(url: endpoint.serverURL + "/health", connectTimeout: .seconds(2), totalTimeout: .seconds(5))
        let response = try await HTTPClient.fetch(health)
        guard response.head.status == 200 else {
            throw ChatError.localModel("The local model server said it was ready, but /health answered HTTP \(response.head.status).\n\(logTail())")
        }
    }

    private func logTail() -> String {
        guard let data = try? Data(contentsOf: logFile) else { return "" }
        let lines = String(decoding: data.suffix(4096), as: UTF8.self).split(separator: "\n").suffix(8)
        return "Its log (\(logFile.path)) ends with:\n" + lines.joined(separator: "\n")
    }
}
