import Glibc
import Dispatch
import FoundationEssentials
import Synchronization

/// MCP over a child process's stdin and stdout: newline-delimited JSON, one message per
/// line. The child runs in a process group of its own and is killed with the app, even a
/// crashed one (its own children see their stdin end, and what is left of the group is
/// killed when it ends); its stderr is drained all the time into the server's log — a full
/// pipe would stop it. Lines that are not JSON are skipped and logged. Closing: stdin
/// closed, then SIGTERM, then SIGKILL, to the whole group.
final class MCPStdioTransport: MCPTransport {
    private struct State {
        var child: TiedChildLauncher.PipedChild?
        var closing = false
        /// Whether the child's stdin is still open (closed once, on the writer's queue).
        var stdinOpen = false
        /// A close is ending the child (the first one; later ones wait for it).
        var ending = false
    }

    private let command: String
    private let arguments: [String]
    private let environment: [String]
    private let workingDirectory: String?
    private let log: MCPServerLog
    private let state = Mutex(State())
    private let ended = OneShotSignal()
    private let writer = DispatchQueue(label: "mcp-stdio-writer")
    /// The longest line read; a 10 MB tool result fits, endless output does not.
    static let lineLimit = 64 << 20
    /// A write to a server that has gone must fail with EPIPE, not kill the app: set once,
    /// when the first server starts.
    private static let pipeSignalIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()
    /// How long each step of closing waits for the server to end.
    static let closeGrace = Duration.seconds(2)

    /// What the server inherits from Agent's environment (the MCP SDKs' choice, plus the
    /// locale and the desktop session): API keys and the like in Agent's own environment
    /// are not handed to third-party code. The config's `env` comes on top.
    static let inheritedVariables = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE",
                                     "LC_MESSAGES", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                                     "XDG_CACHE_HOME", "XDG_STATE_HOME", "DISPLAY", "WAYLAND_DISPLAY",
                                     "DBUS_SESSION_BUS_ADDRESS", "http_proxy", "https_proxy", "no_proxy",
                                     "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"]

    init(command: String, arguments: [String], environment: [MCPServerConfig.Variable], workingDirectory: String?,
         log: MCPServerLog, inherited: [String: String] = ProcessInfo.processInfo.environment) {
        self.command = command
        self.arguments = arguments
        var merged: [(String, String)] = Self.inheritedVariables.compactMap { name in inherited[name].map { (name, $0) } }
        for variable in environment {
            merged.removeAll { $0.0 == variable.name }
            merged.append((variable.name, variable.value))
        }
        self.environment = merged.map { "\($0.0)=\($0.1)" }
        self.workingDirectory = workingDirectory
        self.log = log
    }

    var answersWithinSend: Bool { false }

    func open(receive: @escaping @Sendable (JSONValue) -> Void, closed: @escaping @Sendable (String) -> Void) async throws {
        _ = Self.pipeSignalIgnored
        if let workingDirectory, !FileManager.default.fileExists(atPath: workingDirectory) {
            log.note("the working folder \(workingDirectory) does not exist")
            throw MCPError.closed("its working folder “\(workingDirectory)” does not exist")
        }
        // Looked up in the PATH the server gets (its config may set one), not Agent's.
        let path = environment.last { $0.hasPrefix("PATH=") }.map { String($0.dropFirst(5)) }
        guard let executable = Self.resolve(command, path: path) else {
            log.note("the command \(command) was not found")
            throw MCPError.closed("the command “\(command)” was not found")
        }
        let child: TiedChildLauncher.PipedChild
        do {
            child = try await TiedChildLauncher.shared.spawnPiped(executable, arguments: arguments, environment: environment,
                                                                  workingDirectory: workingDirectory)
        } catch let error as POSIXError {
            let reason = "“\(command)” could not start: \(error.code)"
            log.note(reason)
            throw MCPError.closed(reason)
        }
        let closedEarly = state.withLock { state -> Bool in
            state.child = child
            state.stdinOpen = true
            return state.closing
        }
        log.note("started pid \(child.pid): \(([command] + arguments).joined(separator: " "))")
        let log = log
        let stderrDrained = DispatchSemaphore(value: 0)
        DetachedThread.start {
            FileDescriptorReading.drain(child.stderr) { log.serverOutput($0) }
            Glibc.close(child.stderr)
            stderrDrained.signal()
        }
        DetachedThread.start { [self] in
            var splitter = NDJSONLineSplitter(limit: Self.lineLimit)
            let deliver: ([UInt8]) -> Void = { line in
                if let message = try? JSONParser.parse(line) {
                    receive(message)
                } else {
                    log.note("skipped a line on stdout that is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
                }
            }
            FileDescriptorReading.drain(child.stdout) { splitter.feed($0, onLine: deliver) }
            splitter.finish(onLine: deliver)
            if splitter.overflowed { log.note("skipped a line longer than \(Self.lineLimit >> 20) MB") }
            Glibc.close(child.stdout)
            // Whatever it started in its group goes with it — while the group's id is still
            // its own (the leader not yet reaped).
            ChildExit.waitWithoutReaping(child.pid)
            kill(-child.pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            // Its last words on stderr explain the end: read them before telling of it.
            _ = stderrDrained.wait(timeout: .now() + .seconds(1))
            let how = ChildExit.describe(status)
            log.note("the server \(how)")
            closeStdin()
            ended.fire()
            if !state.withLock({ $0.closing }) { closed("the server \(how)") }
        }
        if closedEarly { await close() }
    }

    /// `command` as it will be run: a path as given, a bare name found in `path`.
    static func resolve(_ command: String, path: String?) -> String? {
        guard !command.contains("/") else { return command }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(command)"
            var info = stat()
            if access(candidate, X_OK) == 0, stat(candidate, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
                return candidate
            }
        }
        return nil
    }

    /// Closes the child's stdin after any write in progress (so no write goes to a reused
    /// descriptor).
    private func closeStdin() {
        writer.async { [self] in
            state.withLock { state in
                guard state.stdinOpen, let child = state.child else { return }
                state.stdinOpen = false
                Glibc.close(child.stdin)
            }
        }
    }

    func send(_ message: JSONValue) async throws {
        guard state.withLock({ !$0.closing && $0.stdinOpen }) else {
            throw MCPError.closed("the server is not running")
        }
        let line = Array((message.serialized + "\n").utf8)
        let error: Int32 = await withCheckedContinuation { continuation in
            writer.async { [self] in
                // Checked here, on the queue that closes it: the descriptor is still this child's.
                guard let input = state.withLock({ $0.stdinOpen ? $0.child?.stdin : nil }) else {
                    continuation.resume(returning: EPIPE)
                    return
                }
                continuation.resume(returning: FileDescriptorWriting.writeAll(line, to: input))
            }
        }
        if error != 0 { throw MCPError.closed("the server stopped reading its input") }
    }

    func negotiated(version: String) {}

    func close() async {
        let (child, first) = state.withLock { state -> (TiedChildLauncher.PipedChild?, Bool) in
            state.closing = true
            guard let child = state.child else { return (nil, false) }
            defer { state.ending = true }
            return (child, !state.ending)
        }
        guard let child else { return }
        guard first else {
            _ = await ended.wait(upTo: Self.closeGrace * 3)
            return
        }
        // Queued behind any write; a write blocked on a server that stopped reading fails
        // once the signals below end it.
        closeStdin()
        if await ended.wait(upTo: Self.closeGrace) { return }
        kill(-child.pid, SIGTERM)
        if await ended.wait(upTo: Self.closeGrace) { return }
        log.note("the server did not end on SIGTERM; killing it")
        kill(-child.pid, SIGKILL)
        _ = await ended.wait(upTo: .seconds(10))
    }
}
