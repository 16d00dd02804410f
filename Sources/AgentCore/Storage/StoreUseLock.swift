import FoundationEssentials
import Glibc
import Synchronization

/// Tells a store whether it has its file to itself. Every process that opens the store (the
/// window, each `agent-cli`) holds a shared lock on a file beside it for as long as the store
/// is open. Tidying at start-up (settling replies a crash left streaming, purging chats
/// deleted with an undo still offered) is only right when no other process is using the
/// store: in another one those replies are still streaming, and that undo is still on screen.
///
/// The lock is a POSIX record lock, which belongs to the process: a child being started
/// elsewhere in the process, which holds copies of its descriptors until it execs, does not
/// hold the lock with them, and the process's exit (a crash too) releases it. Because two
/// stores in one process share that lock, the process counts its own stores: a second one on
/// the same file is not alone either.
final class StoreUseLock: Sendable {
    private struct Holder {
        let descriptor: Int32
        var stores: Int
        /// Whether the process holds the lock alone (a store tidying) rather than shared.
        var alone: Bool
    }

    /// The lock files this process holds, by path. One descriptor each, closed with the last
    /// store on it: closing any descriptor on the file would release the process's lock.
    private static let held = Mutex<[String: Holder]>([:])

    private let path: String
    /// Whether this store took the lock alone: no other store, here or in another process,
    /// had the file open.
    let isAlone: Bool

    /// Takes the lock beside `file`: alone when it can be, shared when another process holds
    /// it (waiting for one that holds it alone while it tidies). Where no lock can be made (a
    /// lock file that cannot be opened, a file system without locks), the first store in the
    /// process counts as alone: leftovers are tidied rather than kept for good.
    init(beside file: URL) {
        // One key per file however it is named (a symbolic link, `..`): the folder resolved.
        let folder = file.deletingLastPathComponent().path
        let resolved = realpath(folder, nil).map { name in
            defer { free(name) }
            return String(cString: name)
        }
        let path = (resolved ?? folder) + "/" + file.lastPathComponent + ".lock"
        self.path = path
        enum Taken { case alone, notAlone, sharedAfterWaiting(on: Int32) }
        let taken = Self.held.withLock { held -> Taken in
            if var holder = held[path] {
                holder.stores += 1
                held[path] = holder
                return holder.alone || holder.descriptor < 0 ? .notAlone : .sharedAfterWaiting(on: holder.descriptor)
            }
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            let failure = descriptor >= 0 ? Self.lock(descriptor, F_WRLCK, wait: false) : 0
            let shared = failure == EAGAIN || failure == EACCES
            held[path] = Holder(descriptor: descriptor, stores: 1, alone: !shared)
            return shared ? .sharedAfterWaiting(on: descriptor) : .alone
        }
        switch taken {
        case .alone:
            isAlone = true
        case .notAlone:
            isAlone = false
        case .sharedAfterWaiting(let descriptor):
            // Outside the mutex, so that stores on other files open meanwhile. The descriptor
            // stays open, as this store is counted on it; every store of the process waiting
            // here is let in together, once the other process has tidied.
            _ = Self.lock(descriptor, F_RDLCK, wait: true)
            isAlone = false
        }
    }

    /// Lets other processes in once the tidying is done.
    func share() {
        guard isAlone else { return }
        Self.held.withLock { held in
            guard let descriptor = held[path]?.descriptor else { return }
            held[path]?.alone = false
            if descriptor >= 0 { _ = Self.lock(descriptor, F_RDLCK, wait: false) }
        }
    }

    deinit {
        Self.held.withLock { held in
            guard var holder = held[path] else { return }
            holder.stores -= 1
            if holder.stores > 0 {
                held[path] = holder
                return
            }
            held[path] = nil
            if holder.descriptor >= 0 { close(holder.descriptor) }
        }
    }

    /// Locks the whole file: `F_WRLCK` alone, `F_RDLCK` shared. Returns 0, or why it could not.
    private static func lock(_ descriptor: Int32, _ type: Int32, wait: Bool) -> Int32 {
        var region = flock()
        region.l_type = Int16(type)
        region.l_whence = Int16(SEEK_SET)
        while fcntl(descriptor, wait ? F_SETLKW : F_SETLK, &region) != 0 {
            let failure = errno
            guard failure == EINTR else { return failure }
        }
        return 0
    }
}
