import Glibc
import FoundationEssentials
import Synchronization

/// One MCP server's log file under the app's state folder (`mcp/<name>.log`, 0600): its
/// stderr as it comes, and what Agent noticed (lines skipped, requests refused). The last
/// lines stay in memory to explain a failure in the window.
///
/// The file stays bounded however long a server runs or however fast it loops on an error:
/// once a write takes it past `maximumBytes`, the oldest lines go and the newest `keptBytes`
/// stay, under a line that says so. The newest lines are what a reader needs: why the server
/// fails now, how it ended.
public final class MCPServerLog: Sendable {
    public let file: URL
    private let descriptor: Int32
    private let tail = Mutex<[UInt8]>([])
    /// Held, with the file's `flock`, while the file is written or cut back (`withFileHeld`).
    private let writing = Mutex(())
    private static let tailBytes = 2048
    private static let maximumBytes = 1 << 20
    private static let keptBytes = 1 << 19

    public init(serverName: String, directory: URL = AppIdentity.stateDirectory.appending(path: "mcp")) {
        let safeName = String(serverName.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        file = directory.appending(path: (safeName.isEmpty ? "server" : safeName) + ".log")
        try? PrivateFiles.makeDirectory(directory)
        // Read too: cutting the log back reads its newest part.
        descriptor = open(file.path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            fchmod(descriptor, 0o600)
            withFileHeld { cutBackIfLong() }
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// A note from Agent, on a line of its own.
    public func note(_ text: String) {
        write(Array("agent: \(text)\n".utf8), keep: false)
    }

    /// Bytes the server wrote to stderr.
    func serverOutput(_ bytes: UnsafeRawBufferPointer) {
        write(Array(bytes), keep: true)
    }

    /// The last lines the server wrote to stderr.
    public var lastLines: String {
        let bytes = tail.withLock { $0 }
        var text = String(decoding: bytes, as: UTF8.self)
        if bytes.count >= Self.tailBytes, let firstBreak = text.firstIndex(of: "\n") {
            text = String(text[text.index(after: firstBreak)...])
        }
        return text.trimmed
    }

    private func write(_ bytes: [UInt8], keep: Bool) {
        if keep {
            tail.withLock { tail in
                tail.append(contentsOf: bytes)
                if tail.count > Self.tailBytes { tail.removeFirst(tail.count - Self.tailBytes) }
            }
        }
        guard descriptor >= 0 else { return }
        withFileHeld {
            FileDescriptorWriting.writeAll(bytes, to: descriptor)
            cutBackIfLong()
        }
    }

    /// Runs `body` with the file to itself: against this process's other threads, and against
    /// another process writing the same server's log (the window and `agent-cli --mcp`), whose
    /// lines a cut back would otherwise lose or put above its note.
    private func withFileHeld(_ body: () -> Void) {
        writing.withLock { _ in
            var locked = flock(descriptor, LOCK_EX) == 0
            while !locked && errno == EINTR { locked = flock(descriptor, LOCK_EX) == 0 }
            defer { if locked { flock(descriptor, LOCK_UN) } }
            body()
        }
    }

    /// Past `maximumBytes`: keeps the newest `keptBytes` from the first line that starts in
    /// them, under a note; the rest of the file goes.
    private func cutBackIfLong() {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > off_t(Self.maximumBytes) else { return }
        // From the byte before the newest part: whether a line starts right at it.
        let start = info.st_size - off_t(Self.keptBytes) - 1
        var newest = [UInt8](repeating: 0, count: Self.keptBytes + 1)
        var filled = 0
        while filled < newest.count {
            let count = newest.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled, start + off_t(filled))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        var kept = newest[..<filled]
        // No line starts in it (one line longer than it): its newest part.
        kept = kept.firstIndex(of: UInt8(ascii: "\n")).map { kept[($0 + 1)...] } ?? kept.dropFirst()
        let note = "agent: older lines were left out to keep this log under \(Self.maximumBytes >> 20) MB\n"
        // Appending: after the cut, writes start again at the file's beginning.
        guard ftruncate(descriptor, 0) == 0 else { return }
        FileDescriptorWriting.writeAll(Array(note.utf8) + kept, to: descriptor)
    }
}
