@testable import AgentCore
import Foundation
import Glibc
import Testing

/// Who else has the store open decides whether opening it tidies what a crash left
/// (`StoreUseLock`); the cases between processes are in `AgentCLIChatTests`.
@Suite("Who else has the chat store open")
struct StoreUseLockTests {
    @Test("A child started while the store was open, with copies of its descriptors, does not keep the store in use after it closes")
    func aChildDoesNotHoldTheStore() throws {
        let file = temporaryDatabase()
        var child: pid_t = 0
        // As any process started meanwhile holds them between its fork and its exec, however
        // briefly; this one keeps them on.
        let (chat, _) = try ChatStoreTests.interruptedTurns(in: file) {
            child = try Self.spawnSleep(keeping: try #require(try Self.descriptor(of: file.path + ".lock")))
        }
        defer {
            if child > 0 {
                kill(child, SIGKILL)
                var status: Int32 = 0
                waitpid(child, &status, 0)
            }
        }
        let reopened = try ChatStore(file: file)
        #expect(try reopened.messages(in: chat.id).map(\.message.state) == [.done, .cutOff], "alone: settled")
    }

    @Test("A second store opened on the file keeps the first's database lock, as other processes see it")
    func aSecondStoreKeepsTheDatabaseLocked() throws {
        let file = temporaryDatabase()
        let first = try ChatStore(file: file)
        try first.createChat(ChatSummary(title: "open"))
        #expect(try !Self.sharedRangeFree(file.path), "an open WAL database holds a shared lock")
        let second = try ChatStore(file: file)
        #expect(try !Self.sharedRangeFree(file.path), "still held with a second store open")
        _ = (first, second)
    }

    /// Whether another process could lock SQLite's shared-lock bytes alone: what a closing
    /// connection elsewhere does to learn it is the last, before it deletes the WAL.
    static func sharedRangeFree(_ path: String) throws -> Bool {
        let probe = Process()
        probe.executableURL = URL(filePath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 510, 0x40000002)
            except OSError:
                sys.exit(1)
            """, path]
        try probe.run()
        probe.waitUntilExit()
        try #require(probe.terminationReason == .exit && [0, 1].contains(probe.terminationStatus))
        return probe.terminationStatus == 0
    }

    /// The descriptor this process has open on `path`.
    static func descriptor(of path: String) throws -> Int32? {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init).first { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == path
        }
    }

    /// `sleep 60`, with `descriptor` open in it (as 200, without close-on-exec).
    static func spawnSleep(keeping descriptor: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptor, 200)
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("60"), nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sleep", &actions, nil, arguments, environ)
        try #require(result == 0, "posix_spawn: \(String(cString: strerror(result)))")
        return pid
    }
}
