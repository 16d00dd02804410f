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

    /// Takes the lock beside `file`: alone when it can be, shared otherwise (waiting for a
    /// process that holds it alone while it tidies). A lock that cannot be made is taken
    /// as shared: nothing is tidied, nothing lost.
    init(beside file: URL) {
        descriptor = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            isAlone = false
            return
        }
        isAlone = Self.lock(descriptor, LOCK_EX | LOCK_NB)
        if !isAlone { _ = Self.lock(descriptor, LOCK_SH) }
    }

    /// Lets other processes in once the tidying is done.
    func share() {
        guard isAlone else { return }
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
