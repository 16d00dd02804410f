import AgentCore
import CProcess
import Foundation
import Synchronization

/// Asks on the terminal (`/dev/tty`, so it works while stdin carries the prompt) whether
/// something may happen — only when a person watches stderr. No terminal (a script, a
/// pipe): the answer is no, and stderr says so with `refusal`. Once the reply is stopped
/// (Ctrl+C, or the asking task cancelled) the question open is answered no at once and no
/// other is asked: the Stop goes on as it does mid-reply.
enum TerminalConsent {
    /// One question at a time on the terminal: servers starting together would otherwise
    /// print at once and split the answer typed.
    private static let turn = DispatchSemaphore(value: 1)
    /// Fired when the run's reply is stopped. agent-cli runs one reply, so it holds for every
    /// question, those asked by a server's launch outside the reply's task included.
    private static let stopped = StopSignal()

    /// Answers no to the question open, and to any asked later (SIGINT's handler calls it).
    static func stop() {
        stopped.fire()
    }

    /// Returns once no question is open: the one open (stopped, say) has ended its line, so
    /// what is written next starts on a line of its own.
    static func settled() async {
        await Task.detached {
            turn.wait()
            turn.signal()
        }.value
    }

    static func ask(_ question: String, refusal: String, offerAlways: Bool = true) async -> Consent {
        guard !Task.isCancelled else {
            stop()
            return .deny
        }
        return await withTaskCancellationHandler {
            await Task.detached {
                turn.wait()
                defer { turn.signal() }
                guard !stopped.hasFired else { return Consent.deny }
                guard isatty(STDERR_FILENO) == 1, let tty = FileHandle(forUpdatingAtPath: "/dev/tty") else {
                    AgentCLI.writeError("agent-cli: \(refusal)")
                    return Consent.deny
                }
                defer { try? tty.close() }
                // TRANSLATORS: the answers offered after a question on the terminal. The letters in brackets are what
                // the user types, and agent-cli takes only these English answers (o, once, a, always, y, yes): keep them.
                let answers = offerAlways ? tr("[o]nce, [a]lways, [N]o:") : tr("[y]es, [N]o:")
                FileDescriptorWriting.writeAll(Array((question + " " + answers + " ").utf8), to: tty.fileDescriptor)
                guard let answer = readLine(tty.fileDescriptor) else {
                    // Stopped while asking (Ctrl+C, or the reply cancelled): the question's line
                    // ends here, so what follows starts on a line of its own.
                    FileDescriptorWriting.writeAll(Array("\n".utf8), to: tty.fileDescriptor)
                    return Consent.deny
                }
                switch String(decoding: answer, as: UTF8.self).trimmed.lowercased() {
                case "o", "once", "y", "yes": return Consent.allowOnce
                case "a" where offerAlways, "always" where offerAlways: return Consent.allowAlways
                default: return Consent.deny
                }
            }.value
        } onCancel: {
            stop()
        }
    }

    static func askLocation() async -> Consent {
        await ask(tr("The model asks for your location (get_location). Share it?"),
                  refusal: tr("the model asked for your location; no terminal to ask, so it was refused (use --location LAT,LON)"))
    }

    /// The line typed on `tty` without its newline (what came before the end, if the terminal
    /// closed), or nil once the reply is stopped: poll waits for both at once.
    private static func readLine(_ tty: Int32) -> [UInt8]? {
        var line: [UInt8] = []
        var watched = [pollfd(fd: tty, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopped.descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            if poll(&watched, 2, -1) < 0 {
                if errno == EINTR { continue }
                return line
            }
            if watched[1].revents != 0 { return nil }
            guard watched[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte != 0x0A else { return line }
            line.append(byte)
        }
    }

    /// A pipe that becomes readable, for good, once fired: a thread blocked on the terminal
    /// wakes at once, without a timer. Writing to a pipe is safe from any thread.
    private final class StopSignal: Sendable {
        /// The read end and the write end; -1 when no pipe could be had (poll skips it).
        private let ends: (read: Int32, write: Int32)
        private let fired = Atomic<Bool>(false)

        init() {
            var pipe: [Int32] = [-1, -1]
            if agent_cloexec_pipe(&pipe) != 0 { pipe = [-1, -1] }
            ends = (pipe[0], pipe[1])
        }

        var descriptor: Int32 { ends.read }

        /// Makes the pipe readable; once: a second byte could fill nothing, and no one reads it.
        func fire() {
            guard fired.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged, ends.write >= 0 else { return }
            FileDescriptorWriting.writeAll([1], to: ends.write)
        }

        var hasFired: Bool { fired.load(ordering: .relaxed) }
    }
}
