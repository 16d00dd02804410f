import Glibc
import CProcess
import Dispatch
import FoundationEssentials
import Synchronization

/// A running `llama-server`, watched without polling: its output comes through a pipe,
/// is copied to the log file as it arrives and read for the line that says the model is
/// loaded; its end is noticed the moment it happens (a pidfd, or a thread waiting in
/// `waitid` where the kernel has no pidfds). The child is reaped, and signalled, only on
/// `queue`, so a signal never reaches another process that took its pid.
final class LocalModelProcess: Sendable {
    enum Failure: Error, Equatable {
        /// It ended before it was ready: how.
        case ended(ChildExit.End)
        /// It was not ready in time.
        case timedOut
    }

    /// What llama-server prints once the model is loaded and it takes requests: "llama_server:
    /// listening on http://…" (older builds: "main: server is listening on http://… - starting
    /// the main loop").
    static let readyLine = "listening on http"

    let pid: pid_t
    private struct State {
        var ready = false
        /// How it ended, once it has.
        var end: ChildExit.End?
        /// The end was asked for (`terminate`), so it is not a crash.
        var terminated = false
        var readyWaiters: [UUID: CheckedContinuation<Void, any Error>] = [:]
        var endWaiters: [UUID: CheckedContinuation<ChildExit.End?, Never>] = [:]
        /// The output's last, unfinished line (until ready).
        var partialLine: [UInt8] = []
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "agent.local-model-process")
    private let output: SourceHandle

    /// Dispatch sources are thread-safe; the type is not marked so.
    private struct SourceHandle: @unchecked Sendable {
        let source: any DispatchSourceRead
    }

    /// Watches child `pid`, whose stdout and stderr are the pipe `outputDescriptor` reads;
    /// what it writes goes on to `logDescriptor`. Both descriptors become this object's.
    init(pid: pid_t, output outputDescriptor: Int32, log logDescriptor: Int32, readyWithin timeout: Duration) {
        self.pid = pid
        let output = DispatchSource.makeReadSource(fileDescriptor: outputDescriptor, queue: queue)
        self.output = SourceHandle(source: output)
        output.setEventHandler { [weak self, output] in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = read(outputDescriptor, &buffer, buffer.count)
            guard count > 0 else {
                if count == 0 || (errno != EINTR && errno != EAGAIN) { output.cancel() }
                return
            }
            _ = buffer.withUnsafeBytes { write(logDescriptor, $0.baseAddress, count) }
            self?.scan(buffer[..<count])
        }
        output.setCancelHandler {
            close(outputDescriptor)
            close(logDescriptor)
        }
        output.resume()
        watchEnd()
        queue.asyncAfter(deadline: .now() + .milliseconds(timeout.milliseconds)) { [weak self] in
            self?.failReadiness(.timedOut)
        }
    }

    deinit {
        output.source.cancel()
    }

    var hasEnded: Bool { state.withLock { $0.end != nil } }

    /// How it ended if nobody asked it to (a crash), once it has.
    var unexpectedEnd: ChildExit.End? { state.withLock { $0.terminated ? nil : $0.end } }

    /// Returns once the model is loaded; throws `Failure` if the process ends or the time
    /// runs out first, `CancellationError` when the task is cancelled.
    func waitUntilReady() async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if state.ready {
                        continuation.resume()
                    } else if let end = state.end {
                        continuation.resume(throwing: Failure.ended(end))
                    } else if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        state.readyWaiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.readyWaiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Waits at most `timeout` for the process to end; returns how it ended (nil: still running).
    func waitForEnd(timeout: Duration) async -> ChildExit.End? {
        let id = UUID()
        return await withCheckedContinuation { (continuation: CheckedContinuation<ChildExit.End?, Never>) in
            let end = state.withLock { state -> ChildExit.End? in
                if state.end == nil { state.endWaiters[id] = continuation }
                return state.end
            }
            if let end {
                continuation.resume(returning: end)
                return
            }
            queue.asyncAfter(deadline: .now() + .milliseconds(timeout.milliseconds)) { [self] in
                state.withLock { $0.endWaiters.removeValue(forKey: id) }?.resume(returning: nil)
            }
        }
    }

    /// Asks it to end (SIGTERM), and kills it two seconds later if it has not. Returns at once.
    func terminate() {
        state.withLock { $0.terminated = true }
        queue.async { [self] in
            guard !hasEnded else { return }
            kill(pid, SIGTERM)
            queue.asyncAfter(deadline: .now() + 2) { [self] in
                if !hasEnded { kill(pid, SIGKILL) }
            }
        }
        failReadiness(.ended(.stopped))
    }

    /// Reads the output for the ready line (until it is seen).
    private func scan(_ bytes: ArraySlice<UInt8>) {
        let becameReady = state.withLock { state -> Bool in
            guard !state.ready else { return false }
            state.partialLine.append(contentsOf: bytes)
            var found = false
            while let newline = state.partialLine.firstIndex(of: 0x0A) {
                if String(decoding: state.partialLine[..<newline], as: UTF8.self).contains(Self.readyLine) { found = true }
                state.partialLine.removeSubrange(...newline)
            }
            if state.partialLine.count > 16 * 1024 { state.partialLine.removeAll() }
            if found { state.ready = true }
            return found
        }
        guard becameReady else { return }
        let waiters = state.withLock { state in
            defer { state.readyWaiters.removeAll() }
            return Array(state.readyWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func failReadiness(_ failure: Failure) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard !state.ready else { return [] }
            defer { state.readyWaiters.removeAll() }
            return Array(state.readyWaiters.values)
        }
        for waiter in waiters { waiter.resume(throwing: failure) }
    }

    /// Learns of the end as it happens: a read source on a pidfd, or a thread in `waitpid`.
    private func watchEnd() {
        let pidDescriptor = agent_pidfd_open(pid)
        guard pidDescriptor >= 0 else {
            let (pid, queue) = (pid, queue)
            DetachedThread.start { [weak self] in
                ChildExit.waitWithoutReaping(pid)
                queue.async { [weak self] in
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    self?.ended(status: status)
                }
            }
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: pidDescriptor, queue: queue)
        source.setEventHandler { [weak self, source, pid] in
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return }
            source.cancel()
            self?.ended(status: status)
        }
        source.setCancelHandler { close(pidDescriptor) }
        source.resume()
    }

    private func ended(status: Int32) {
        let end = ChildExit.end(status)
        let waiters = state.withLock { state -> [CheckedContinuation<ChildExit.End?, Never>] in
            state.end = end
            defer { state.endWaiters.removeAll() }
            return Array(state.endWaiters.values)
        }
        failReadiness(.ended(end))
        for waiter in waiters { waiter.resume(returning: end) }
    }
}
