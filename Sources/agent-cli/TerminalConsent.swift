import AgentCore
import Foundation

/// Asks on the terminal (`/dev/tty`, so it works while stdin carries the prompt) whether a
/// tool may reveal the user's location — only when a person watches stderr. No terminal
/// (a script, a pipe): the answer is no.
enum TerminalConsent {
    static func ask() async -> LocationConsent {
        await Task.detached {
            guard isatty(STDERR_FILENO) == 1, let tty = FileHandle(forUpdatingAtPath: "/dev/tty") else {
                FileHandle.standardError.write(Data("agent-cli: the model asked for your location; no terminal to ask, so it was refused (use --location LAT,LON)\n".utf8))
                return LocationConsent.deny
            }
            defer { try? tty.close() }
            tty.write(Data("The model asks for your location (get_location). Share it? [o]nce, [a]lways, [N]o: ".utf8))
            var answer: [UInt8] = []
            while true {
                let byte = tty.readData(ofLength: 1)
                guard let first = byte.first, first != 0x0A else { break }
                answer.append(first)
            }
            switch String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespaces).lowercased() {
            case "o", "once": return LocationConsent.allowOnce
            case "a", "always": return LocationConsent.allowAlways
            default: return LocationConsent.deny
            }
        }.value
    }
}
