import Glibc
import FoundationEssentials
import Synchronization

/// One MCP server's log file under the app's state folder (`mcp/<name>.log`, 0600): its
/// stderr as it comes, and what Agent noticed (lines skipped, requests refused). The last
/// lines stay in memory to explain a failure in the window.
public final class MCPServerLog: Sendable {
    public let file: URL
    private let descriptor: Int32
    private let tail = Mutex<[UInt8]>([])
    private static let tailBytes = 2048
    /// A log past this size starts over when the server starts.
    private static let keptBytes: off_t = 1 << 20

    public init(serverName: String, directory: URL = AppIdentity.stateDirectory.appending(path: "mcp")) {
        let safeName = String(serverName.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        file = directory.appending(path: (safeName.isEmpty ? "server" : safeName) + ".log")
        try? PrivateFiles.makeDirectory(directory)
        var descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_size > Self.keptBytes { _ = ftruncate(descriptor, 0) }
            fchmod(descriptor, 0o600)
        } else {
            descriptor = -1
        }
        self.descriptor = descriptor
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
        FileDescriptorWriting.writeAll(bytes, to: descriptor)
    }
}
