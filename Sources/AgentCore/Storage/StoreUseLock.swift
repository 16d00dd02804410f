import FoundationEssentials
import Glibc

/// Tells a process whether it has the chat store to itself. Every process that opens the
/// store (the window, each `agent-cli`) holds a shared `flock` on a file beside it for as long
/// as the store is open. Tidying at start-up (settling replies a crash left streaming,
/// purging chats deleted with an undo still offered) is only right when no other process is
/// using the store: in another one those replies are still streaming, and that undo is
/// still on screen. The lock is released when its descriptor closes, by a crash too.
final class StoreUseLock: Sendable {
    private let descriptor: Int32
    /// Whether this process took the lock alone: no other process had the store open.
    let isAlone: Bool

    /// Takes the lock beside `file`: alone when it can be, shared when another process holds
    /// it (waiting for one that holds it alone while it tidies). Where no lock can be made (a
    /// lock file that cannot be opened, a file system without `flock`), the process counts
    /// as alone, as before there was a lock: leftovers are tidied rather than kept for good.
    init(beside file: URL) {
        descriptor = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            isAlone = true
            return
        }
        if Self.lock(descriptor, LOCK_EX | LOCK_NB) {
            isAlone = true
        } else {
            isAlone = errno != EWOULDBLOCK
            if !isAlone { _ = Self.lock(descriptor, LOCK_SH) }
        }
    }

    /// Lets other processes in once the tidying is done.
    func share() {
        guard isAlone, descriptor >= 0 else { return }
        _ = Self.lock(descriptor, LOCK_SH)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    private static func lock(_ descriptor: Int32, _ operation: Int32) -> Bool {
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
