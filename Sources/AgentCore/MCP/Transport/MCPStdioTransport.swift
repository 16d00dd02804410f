import Glibc
import Dispatch
import FoundationEssentials
import Synchronization

/// MCP over a child process's stdin and stdout: newline-delimited JSON, one message per
/// line. The child runs in a process group of its own, dies with the app (even a crashed
/// one), and its stderr is drained all the time into the server's log — a full pipe would
/// stop it. Lines that are not JSON are skipped and logged. Closing: stdin closed, then
/// SIGTERM, then SIGKILL, to the whole group.
final class MCPStdioTransport: MCPTransport {
    private struct State {
        var child: TiedChildLauncher.PipedChild?
        var closing = false
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

    var diagnostics: String { log.lastLines }

    func open(receive: @escaping @Sendable (JSONValue) -> Void, closed: @escaping @Sendable (String) -> Void) async throws {
        // A write to a server that has gone must fail with EPIPE, not kill the app.
        signal(SIGPIPE, SIG_IGN)
        let child: TiedChildLauncher.PipedChild
        do {
            child = try await TiedChildLauncher.shared.spawnPiped(command, arguments: arguments, environment: environment,
                                                                  workingDirectory: workingDirectory)
        } catch let error as POSIXError {
            let reason = error.code == .ENOENT ? "the command “\(command)” was not found" : "“\(command)” could not start: \(error.code)"
            log.note(reason)
            throw MCPError.closed(reason)
        }
        state.withLock { $0.child = child }
        log.note("started pid \(child.pid): \(([command] + arguments).joined(separator: " "))")
        let log = log
        DetachedThread.start {
            Self.drain(child.stderr) { log.serverOutput($0) }
            Glibc.close(child.stderr)
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
            Self.drain(child.stdout) { splitter.feed($0, onLine: deliver) }
            splitter.finish(onLine: deliver)
            if splitter.overflowed { log.note("skipped a line longer than \(Self.lineLimit >> 20) MB") }
            Glibc.close(child.stdout)
            var status: Int32 = 0
            while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
            let how = ChildExit.describe(status)
            log.note("the server \(how)")
            ended.fire()
            // Whatever it started in its group goes with it.
            kill(-child.pid, SIGKILL)
            if !state.withLock({ $0.closing }) { closed("the server \(how)") }
        }
    }

    /// Reads `descriptor` until end of file, handing on what arrives.
    private static func drain(_ descriptor: Int32, _ handle: (UnsafeRawBufferPointer) -> Void) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            handle(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    func send(_ message: JSONValue) async throws {
        guard let input = state.withLock({ $0.closing ? nil : $0.child?.stdin }) else {
            throw MCPError.closed("the server is not running")
        }
        let line = Array((message.serialized + "\n").utf8)
        let error: Int32 = await withCheckedContinuation { continuation in
            writer.async {
                let failure = line.withUnsafeBytes { bytes -> Int32 in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(input, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { return errno }
                        offset += written
                    }
                    return 0
                }
                continuation.resume(returning: failure)
            }
        }
        if error != 0 { throw MCPError.closed("the server stopped reading its input") }
    }

    func negotiated(version: String) {}

    func close() async {
        guard let child = state.withLock({ state -> TiedChildLauncher.PipedChild? in
            guard !state.closing else { return nil }
            state.closing = true
            return state.child
        }) else { return }
        // After any write in progress, so no write goes to a reused descriptor.
        await withCheckedContinuation { continuation in
            writer.async {
                Glibc.close(child.stdin)
                continuation.resume()
            }
        }
        if await ended.wait(upTo: Self.closeGrace) { return }
        kill(-child.pid, SIGTERM)
        if await ended.wait(upTo: Self.closeGrace) { return }
        log.note("the server did not end on SIGTERM; killing it")
        kill(-child.pid, SIGKILL)
        _ = await ended.wait(upTo: .seconds(10))
    }
}
