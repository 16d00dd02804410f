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
                FileHandle.standardError.write(Data("agent-cli: \(refusal)\n".utf8))
                return Consent.deny
            }
            defer { try? tty.close() }
            // TRANSLATORS: the answers offered after a question on the terminal. The letters in brackets are what
            // the user types, and agent-cli takes only these English answers (o, once, a, always, y, yes): keep them.
            let answers = offerAlways ? tr("[o]nce, [a]lways, [N]o:") : tr("[y]es, [N]o:")
            tty.write(Data((question + " " + answers + " ").utf8))
            var answer: [UInt8] = []
            while true {
                let byte = tty.readData(ofLength: 1)
                guard let first = byte.first, first != 0x0A else { break }
                answer.append(first)
            }
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
