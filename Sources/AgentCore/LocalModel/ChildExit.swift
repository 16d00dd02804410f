import Glibc

/// Waiting for a child process to end without reaping it: until it is reaped its pid stays
/// its own, so a signal sent meanwhile can never reach another process that took the pid.
enum ChildExit {
    /// Blocks until child `pid` has ended; leaves it to be reaped with `waitpid`.
    static func waitWithoutReaping(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    }

    /// How a wait status says the process ended ("exited with status 1", "was killed by
    /// signal 9"). WIFSIGNALED / WTERMSIG / WEXITSTATUS are macros Swift cannot call.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        return signal != 0 ? "was killed by signal \(signal)" : "exited with status \((status >> 8) & 0xff)"
    }
}
