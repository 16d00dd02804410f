import Glibc
import CProcess
import Dispatch
import FoundationEssentials
import Synchronization

/// Starts child processes tied to this process's life from one thread that lives as long
/// as the process. `PR_SET_PDEATHSIG` fires when the *thread* that forked the child ends,
/// and the threads that run Swift tasks come and go: in a command-line program even the
/// main actor moves to libdispatch workers, which retire after a few idle seconds — and
/// would take the local model server with them.
final class TiedChildLauncher: Sendable {
    static let shared = TiedChildLauncher()

    private struct Request: Sendable {
        let arguments: [String]
        let outputDescriptor: Int32
        let reply: @Sendable (pid_t, Int32) -> Void
    }

    private let pending = Mutex<[Request]>([])
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {
        DetachedThread.start { [self] in serve() }
    }

    /// Starts `arguments[0]` with `arguments`, output to `outputDescriptor`; returns the
    /// child's pid, or throws with the reason it could not start.
    func spawn(_ arguments: [String], output outputDescriptor: Int32) async throws -> pid_t {
        let (pid, error) = await withCheckedContinuation { (continuation: CheckedContinuation<(pid_t, Int32), Never>) in
            pending.withLock {
                $0.append(Request(arguments: arguments, outputDescriptor: outputDescriptor) { continuation.resume(returning: ($0, $1)) })
            }
            wakeUp.signal()
        }
        guard pid > 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        return pid
    }

    private func serve() {
        while true {
            wakeUp.wait()
            guard let request = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            var cStrings = request.arguments.map { strdup($0) }
            cStrings.append(nil)
            let pid = cStrings.withUnsafeBufferPointer { argv in
                agent_spawn_tied_child(request.arguments[0], argv.baseAddress, request.outputDescriptor)
            }
            let error = pid > 0 ? 0 : errno
            cStrings.forEach { free($0) }
            request.reply(pid, error)
        }
    }
}
