import Glibc
import CProcess
import Dispatch
import FoundationEssentials
import Synchronization

/// Starts child processes tied to this process's life from one thread that lives as long
/// as the process. `PR_SET_PDEATHSIG` fires when the *thread* that forked the child ends,
/// and the threads that run Swift tasks come and go: in a command-line program even the
/// main actor moves to libdispatch workers, which retire after a few idle seconds — and
/// would take the local model server and MCP servers with them.
final class TiedChildLauncher: Sendable {
    static let shared = TiedChildLauncher()

    private let pending = Mutex<[@Sendable () -> Void]>([])
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {
        DetachedThread.start { [self] in serve() }
    }

    /// Starts `arguments[0]` with `arguments`, output to `outputDescriptor`; returns the
    /// child's pid, or throws with the reason it could not start.
    func spawn(_ arguments: [String], output outputDescriptor: Int32) async throws -> pid_t {
        let (pid, error) = await onLauncherThread {
            let pid = CStringArray.with(arguments) { argv in
                agent_spawn_tied_child(arguments[0], argv, outputDescriptor)
            }
            return (pid, pid > 0 ? 0 : errno)
        }
        guard pid > 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        return pid
    }

    /// The pid and the parent's ends of the pipes of a child started by `spawnPiped`.
    struct PipedChild: Sendable {
        let pid: pid_t
        let stdin: Int32
        let stdout: Int32
        let stderr: Int32
    }

    /// Starts `command` (a path; a bare name is looked up in this process's PATH) with `arguments`, exactly `environment` and
    /// `workingDirectory`, in a process group of its own, its stdin, stdout and stderr
    /// pipes to this process.
    func spawnPiped(_ command: String, arguments: [String], environment: [String],
                    workingDirectory: String?) async throws -> PipedChild {
        let (child, error) = await onLauncherThread { () -> (PipedChild?, Int32) in
            var input: Int32 = -1, output: Int32 = -1, errors: Int32 = -1
            let pid = CStringArray.with([command] + arguments) { argv in
                CStringArray.with(environment) { envp in
                    agent_spawn_piped_child(command, argv, envp, workingDirectory, &input, &output, &errors)
                }
            }
            guard pid > 0 else { return (nil, errno) }
            return (PipedChild(pid: pid, stdin: input, stdout: output, stderr: errors), 0)
        }
        guard let child else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        return child
    }

    /// Runs `body` on the launcher's thread and returns its result.
    private func onLauncherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            pending.withLock { $0.append { continuation.resume(returning: body()) } }
            wakeUp.signal()
        }
    }

    private func serve() {
        while true {
            wakeUp.wait()
            guard let work = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            work()
        }
    }
}
