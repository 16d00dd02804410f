import Glibc
import CProcess
import FoundationEssentials

/// The app's own model server: llama.cpp's `llama-server` on a free 127.0.0.1 port,
/// started on first use and stopped on quit. The child is tied to this process, so even
/// a `kill -9` of the app leaves no orphan; it is restarted if it dies between requests.
@MainActor
public final class LocalModelServer {
    public let model: LocalModel
    private let runtimeDirectory: URL
    private let extraArguments: [String]
    private var processID: pid_t?
    private var endpointIfRunning: ChatEndpoint?
    private var starting: Task<ChatEndpoint, any Error>?
    /// How the last server ended when nobody stopped it ("was killed by signal 9").
    private var unexpectedEnd: String?

    public init(model: LocalModel = .smolLM2, runtimeDirectory: URL = LocalRuntime.defaultDirectory,
                extraArguments: [String] = []) {
        self.model = model
        self.runtimeDirectory = runtimeDirectory
        self.extraArguments = extraArguments
    }

    /// The running server's process, for tests and diagnostics.
    public var pid: pid_t? { processID }

    /// Where the server's output goes.
    public var logFile: URL { AppIdentity.cacheDirectory.appending(path: "llama-server.log") }

    /// The server's endpoint, starting (or restarting) the server when it is not running.
    public func endpoint() async throws -> ChatEndpoint {
        if let endpointIfRunning, isAlive { return endpointIfRunning }
        if let starting { return try await starting.value }
        let task = Task { try await self.launch() }
        starting = task
        defer { starting = nil }
        return try await task.value
    }

    /// Stops the server and waits for it to exit (at most about two seconds).
    public func stop() {
        guard let pid = processID else { return }
        processID = nil
        endpointIfRunning = nil
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            if reaped(pid) { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Whether the child is still running (reaping it when it has died).
    private var isAlive: Bool {
        guard let pid = processID else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        processID = nil
        endpointIfRunning = nil
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift cannot call (macros).
        let signal = status & 0x7f
        unexpectedEnd = signal != 0 ? "was killed by signal \(signal)" : "exited with status \((status >> 8) & 0xff)"
        return false
    }

    /// When the server has died on its own since the last request: how it ended (once).
    /// A process's sockets close before it can be reaped, so a reply cut off by a crash
    /// may be seen first: this waits up to `grace` for the process to be reaped.
    public func takeUnexpectedEnd(grace: Duration = .milliseconds(500)) async -> String? {
        let deadline = ContinuousClock.now + grace
        while isAlive, processID != nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        defer { unexpectedEnd = nil }
        return unexpectedEnd
    }

    private func reaped(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    private func launch() async throws -> ChatEndpoint {
        unexpectedEnd = nil
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
        try FileManager.default.createDirectory(at: logFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let logDescriptor = open(logFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { if logDescriptor >= 0 { close(logDescriptor) } }
        let pid: pid_t
        do {
            pid = try await TiedChildLauncher.shared.spawn(arguments, output: logDescriptor)
        } catch {
            throw ChatError.localModel("Could not start \(runtime.serverExecutable.path): \(ChatError.describe(error))")
        }
        processID = pid
        let endpoint = ChatEndpoint(serverURL: "http://127.0.0.1:\(port)", model: model.displayName)
        do {
            try await waitUntilHealthy(endpoint, pid: pid)
        } catch {
            stop()
            throw error
        }
        endpointIfRunning = endpoint
        return endpoint
    }

    /// Polls `/health` until the model is loaded, the child exits, or two minutes pass.
    private func waitUntilHealthy(_ endpoint: ChatEndpoint, pid: pid_t) async throws {
        let health = HTTPRequest(url: endpoint.serverURL + "/health", connectTimeout: .seconds(1), totalTimeout: .seconds(2))
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            try Task.checkCancellation()
            if reaped(pid) {
                processID = nil
                throw ChatError.localModel("The local model server exited while starting.\n\(logTail())")
            }
            if let response = try? await HTTPClient.fetch(health), response.head.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ChatError.localModel("The local model server did not become ready within two minutes.\n\(logTail())")
    }

    private func logTail() -> String {
        guard let data = try? Data(contentsOf: logFile) else { return "" }
        let lines = String(decoding: data.suffix(4096), as: UTF8.self).split(separator: "\n").suffix(8)
        return "Its log (\(logFile.path)) ends with:\n" + lines.joined(separator: "\n")
    }
}
