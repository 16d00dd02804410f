@testable import AgentCore
import Foundation
import Glibc
import TestSupport
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

    @Test("A store waiting while another process tidies its file does not hold up a store on another file")
    func aWaitHoldsUpOnlyItsFile() async throws {
        let waited = temporaryDatabase()
        _ = try ChatStore(file: waited)
        let tidier = Process()
        tidier.executableURL = URL(filePath: "/usr/bin/env")
        // Holds the lock file alone, as a process tidying does, until its input closes.
        tidier.arguments = ["python3", "-c", """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR)
            fcntl.lockf(fd, fcntl.LOCK_EX)
            print("held", flush=True)
            sys.stdin.read()
            """, waited.path + ".lock"]
        let input = Pipe(), output = Pipe()
        tidier.standardInput = input
        tidier.standardOutput = output
        try tidier.run()
        defer {
            tidier.terminate()
            tidier.waitUntilExit()
        }
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")), case let more = output.fileHandleForReading.availableData, !more.isEmpty {
            said += more
        }
        try #require(String(decoding: said, as: UTF8.self) == "held\n")

        let opened = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? ChatStore(file: waited)
            opened.signal()
        }
        let me = "\(getpid())"
        #expect(try await TestTiming.eventually {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            return locks.split(separator: "\n").contains { $0.contains("->") && $0.split(separator: " ").contains { $0 == me } }
        }, "the store waits for the lock")

        let other = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? ChatStore(file: temporaryDatabase())
            other.signal()
        }
        let deadline = DispatchTime.now() + .seconds(60 * TestTiming.scale)
        #expect(other.wait(timeout: deadline) == .success, "a store on another file opens meanwhile")
        #expect(opened.wait(timeout: .now()) == .timedOut, "still waiting while the other process tidies")
        try input.fileHandleForWriting.close()
        #expect(opened.wait(timeout: deadline) == .success, "let in once it has")
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
