import Glibc

/// Waiting for a child process to end without reaping it: until it is reaped its pid stays
/// its own, so a signal sent meanwhile can never reach another process that took the pid.
public enum ChildExit {
    /// Blocks until child `pid` has ended; leaves it to be reaped with `waitpid`.
    static func waitWithoutReaping(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    }

    /// How a process ended.
    public enum End: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal killed it.
        case killed(Int32)
        /// Agent stopped it.
        case stopped

        /// In English, for logs and for what the model reads: "exited with status 1",
        /// "was killed by signal 9", "was stopped".
        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "was killed by signal \(signal)"
            case .stopped: "was stopped"
            }
        }
    }

    /// How a wait status says the process ended. WIFSIGNALED / WTERMSIG / WEXITSTATUS are
    /// macros Swift cannot call.
    static func end(_ status: Int32) -> End {
        let signal = status & 0x7f
        return signal != 0 ? .killed(signal) : .exited((status >> 8) & 0xff)
    }

    /// How a wait status says the process ended, in English ("exited with status 1", "was
    /// killed by signal 9").
    static func describe(_ status: Int32) -> String {
        end(status).description
    }
}
