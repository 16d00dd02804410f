import AgentCore
import Foundation

/// Asks on the terminal (`/dev/tty`, so it works while stdin carries the prompt) whether
/// something may happen — only when a person watches stderr. No terminal (a script, a
/// pipe): the answer is no, and stderr says so with `refusal`.
enum TerminalConsent {
    /// One question at a time on the terminal: servers starting together would otherwise
    /// print at once and split the answer typed.
    private static let turn = DispatchSemaphore(value: 1)

    static func ask(_ question: String, refusal: String, offerAlways: Bool = true) async -> Consent {
        await Task.detached {
            turn.wait()
            defer { turn.signal() }
            guard isatty(STDERR_FILENO) == 1, let tty = FileHandle(forUpdatingAtPath: "/dev/tty") else {
                AgentCLI.writeError("agent-cli: \(refusal)")
                return Consent.deny
            }
            defer { try? tty.close() }
            // TRANSLATORS: the answers offered after a question on the terminal. The letters in brackets are what
            // the user types, and agent-cli takes only these English answers (o, once, a, always, y, yes): keep them.
            let answers = offerAlways ? tr("[o]nce, [a]lways, [N]o:") : tr("[y]es, [N]o:")
            FileDescriptorWriting.writeAll(Array((question + " " + answers + " ").utf8), to: tty.fileDescriptor)
            var answer: [UInt8] = []
            var byte: UInt8 = 0
            while read(tty.fileDescriptor, &byte, 1) == 1, byte != 0x0A { answer.append(byte) }
            switch String(decoding: answer, as: UTF8.self).trimmed.lowercased() {
            case "o", "once", "y", "yes": return Consent.allowOnce
            case "a" where offerAlways, "always" where offerAlways: return Consent.allowAlways
            default: return Consent.deny
            }
        }.value
    }

    static func askLocation() async -> Consent {
        await ask(tr("The model asks for your location (get_location). Share it?"),
                  refusal: tr("the model asked for your location; no terminal to ask, so it was refused (use --location LAT,LON)"))
    }
}
