import Glibc
import Dispatch
import FoundationEssentials
import Synchronization

/// One run of the install script: a child in a process group of its own (pip, cmake and
/// the compiler are its grandchildren), its stdout read for progress lines and its stderr
/// copied to the log as they arrive — blocking reads on threads of their own, no polling.
/// Its end is learnt from `waitid`; whatever it left in its group is killed then, and the
/// child is reaped only after that, so the group's id is still its own when signalled.
/// Its stdin stays open until then: the script ends the set-up when it closes, so even an
/// app killed outright leaves no build running.
final class RuntimeInstallProcess: Sendable {
    /// What the run reports, in order.
    enum Event: Sendable {
        case progress(RuntimeInstallProgress)
        /// It ended, with this wait status; the end of its log.
        case ended(Int32, logTail: String)
    }

    let pid: pid_t
    private let reaped = Mutex(false)
    /// The log's last bytes, for the error shown when the set-up fails.
    private let tail = Mutex<[UInt8]>([])
    private static let tailBytes = 8 * 1024

    /// Starts `script --progress` (plus `options`) with `environment`; its stderr and any
    /// other output go to `log`. `report` is called from other threads.
    static func start(script: URL, options: [String], environment: [String], log: URL,
                      report: @escaping @Sendable (Event) -> Void) async throws -> RuntimeInstallProcess {
        try PrivateFiles.makeDirectory(log.deletingLastPathComponent())
        let logDescriptor = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard logDescriptor >= 0 else {
            // TRANSLATORS: %1$s is a file's path, %2$s the system's reason.
            throw ChatError.localModel(tr("Could not open the set-up's log %1$s: %2$s", log.path, String(cString: strerror(errno))))
        }
        let child: TiedChildLauncher.PipedChild
        do {
            child = try await TiedChildLauncher.shared.spawnPiped(script.path, arguments: ["--progress"] + options,
                                                                  environment: environment, workingDirectory: nil)
        } catch {
            close(logDescriptor)
            // TRANSLATORS: %1$s is a program's path, %2$s the reason.
            throw ChatError.localModel(tr("Could not start %1$s: %2$s", script.path, ChatError.describe(error)))
        }
        let process = RuntimeInstallProcess(pid: child.pid)
        process.watch(child, logDescriptor: logDescriptor, report: report)
        return process
    }

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Stops the whole set-up: SIGTERM to its group, SIGKILL two seconds later if it has
    /// not ended. Returns at once.
    func cancel() {
        signalGroup(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { [self] in signalGroup(SIGKILL) }
    }

    /// The log's last `count` lines.
    private func logTail(lines count: Int = 12) -> String {
        let text = String(decoding: tail.withLock { $0 }, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(count).joined(separator: "\n")
    }

    private func signalGroup(_ signal: Int32) {
        reaped.withLock { if !$0 { kill(-pid, signal) } }
    }

    private func keepTail(_ bytes: UnsafeRawBufferPointer) {
        tail.withLock { tail in
            tail.append(contentsOf: bytes)
            if tail.count > Self.tailBytes { tail.removeFirst(tail.count - Self.tailBytes) }
        }
    }

    private func watch(_ child: TiedChildLauncher.PipedChild, logDescriptor: Int32, report: @escaping @Sendable (Event) -> Void) {
        let stdoutDrained = DispatchSemaphore(value: 0)
        let stderrDrained = DispatchSemaphore(value: 0)
        // Both readers write to the log (stdout a whole line at a time); -1 once it is closed.
        let log = Mutex(logDescriptor)
        let writeLog: @Sendable (UnsafeRawBufferPointer) -> Void = { bytes in
            log.withLock { descriptor in
                if descriptor >= 0 { FileDescriptorWriting.writeAll(bytes, to: descriptor) }
            }
        }
        DetachedThread.start { [self] in
            FileDescriptorReading.drain(child.stderr) { bytes in
                writeLog(bytes)
                keepTail(bytes)
            }
            close(child.stderr)
            stderrDrained.signal()
        }
        DetachedThread.start { [self] in
            var splitter = NDJSONLineSplitter(limit: 64 * 1024)
            let handle: ([UInt8]) -> Void = { line in
                if let progress = RuntimeInstallProgress.parse(String(decoding: line, as: UTF8.self)) {
                    report(.progress(progress))
                } else {
                    (line + [0x0A]).withUnsafeBytes { bytes in
                        writeLog(bytes)
                        self.keepTail(bytes)
                    }
                }
            }
            FileDescriptorReading.drain(child.stdout) { splitter.feed($0, onLine: handle) }
            splitter.finish(onLine: handle)
            close(child.stdout)
            stdoutDrained.signal()
        }
        DetachedThread.start { [self] in
            ChildExit.waitWithoutReaping(child.pid)
            // What it started and left running goes with it (its group's id is still its own).
            kill(-child.pid, SIGKILL)
            var status: Int32 = 0
            reaped.withLock { done in
                while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
                done = true
            }
            close(child.stdin)
            // Its last lines explain the end: read them before telling of it. (The group is
            // killed, so the pipes close at once unless something left the group; a loaded
            // machine may still take a while to run the readers.)
            _ = stdoutDrained.wait(timeout: .now() + .seconds(10))
            _ = stderrDrained.wait(timeout: .now() + .seconds(10))
            log.withLock { descriptor in
                close(descriptor)
                descriptor = -1
            }
            report(.ended(status, logTail: logTail()))
        }
    }
}
