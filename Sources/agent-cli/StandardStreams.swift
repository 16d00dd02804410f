import AgentCore
import Glibc
import Synchronization

/// agent-cli's standard input, output and error, safe with whatever a shell or a script
/// hands over: a closed descriptor, a full disk, a reader that goes away (`| head`). Output
/// that cannot be written is told at the end (`AgentCLI.exit`), never a crash or a signal.
enum StandardStreams {
    /// The errno that stopped standard output; 0 while it works. Nothing more is written after.
    private static let outputFailure = Atomic<Int32>(0)

    /// Call first thing. A reader that goes away makes writes fail (EPIPE) rather than
    /// killing the process before the reply is saved. A closed 0, 1 or 2 is taken by
    /// /dev/null opened read-only, so no file, socket or database opened later gets that
    /// number and is written to as stdout: reading it gives an empty input, writing fails as
    /// on a closed descriptor.
    static func secure() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 && null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }

    /// Writes `text` to standard output; false when it could not be (then or before).
    @discardableResult
    static func write(_ text: String) -> Bool {
        guard outputFailure.load(ordering: .acquiring) == 0 else { return false }
        let error = FileDescriptorWriting.writeAll(Array(text.utf8), to: STDOUT_FILENO)
        guard error == 0 else {
            _ = outputFailure.compareExchange(expected: 0, desired: error, ordering: .acquiringAndReleasing)
            return false
        }
        return true
    }

    /// `text` and a newline, as `print` writes it.
    static func line(_ text: String) {
        write(text + "\n")
    }

    /// Whether standard output has failed.
    static var outputFailed: Bool { outputFailure.load(ordering: .acquiring) != 0 }

    /// Why standard output failed, in the system's words; nil while it works.
    static var outputFailureReason: String? {
        let error = outputFailure.load(ordering: .acquiring)
        return error == 0 ? nil : describe(error)
    }

    /// Writes `text` to standard error; nowhere left to report it if that fails.
    static func writeError(_ text: String) {
        FileDescriptorWriting.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// All of standard input as text, and the errno that stopped the reading (0: none).
    static func readInput() -> (text: String, error: Int32) {
        var bytes: [UInt8] = []
        let error = FileDescriptorReading.drain(STDIN_FILENO) { bytes.append(contentsOf: $0) }
        return (String(decoding: bytes, as: UTF8.self), error)
    }

    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
