import AgentCore
import Foundation
import Synchronization

/// `agent-cli`: one prompt, one streamed reply, on stdout. Errors go to stderr and set a
/// non-zero exit status; whatever text arrived is still printed.
@main
struct AgentCLI {
    static let usage = """
        Usage: agent-cli [OPTIONS] [PROMPT...]
        Sends PROMPT (or standard input when no words are given) and prints the reply as it streams.

        \(LaunchOptions.optionsHelp)

        Exit status: 0 on a complete reply, 1 on any failure, 2 on a usage error, 130 when interrupted.
        """

    @MainActor
    static func main() async {
        let options: LaunchOptions
        let endpoint: ChatEndpoint?
        do {
            options = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()), acceptsWords: true)
            endpoint = try options.endpoint()
        } catch {
            fail(usage: error.message)
        }
        if options.showHelp {
            print(usage)
            return
        }
        if options.showVersion {
            print("agent-cli \(AppIdentity.version)")
            return
        }
        var prompt = options.words.joined(separator: " ")
        if prompt.isEmpty {
            prompt = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !prompt.isEmpty else {
            fail(usage: "no prompt: give it as words or on standard input")
        }

        let connection: ChatConnection
        if let endpoint {
            connection = ChatConnection(endpoint: endpoint, options: options.generation)
        } else {
            connection = ChatConnection(localServer: LocalModelServer(), options: options.generation)
            writeError("agent-cli: using the local model \(connection.modelName)")
        }

        let printer = ReplyPrinter()
        let reply = Task { @MainActor in
            let backend = try await connection.backend()
            try Task.checkCancellation()
            try await backend.streamReply(to: [ChatMessage(role: .user, text: prompt, state: .done)]) { event in
                printer.print(event)
            }
        }
        var interrupted = false
        signal(SIGINT, SIG_IGN)
        let interruption = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interruption.setEventHandler {
            interrupted = true
            reply.cancel()
        }
        interruption.resume()

        let result = await reply.result
        printer.finishLine()
        connection.shutdown()
        if case .failure(let error) = result, !(error is CancellationError) {
            writeError("agent-cli: error: \(ChatError.describe(error))")
            exit(1)
        }
        if interrupted { exit(130) }
    }

    static func fail(usage message: String) -> Never {
        writeError("agent-cli: \(message)\nTry 'agent-cli --help'.")
        exit(2)
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Writes the reply to stdout as it arrives, straight from the transport's thread: one
/// write per update, no hop to another thread per token.
final class ReplyPrinter: Sendable {
    private let printedAnything = Mutex(false)

    func print(_ event: ReplyEvent) {
        let text = printedAnything.withLock { printedAnything -> String? in
            guard let text = event.transcriptText(replyIsEmpty: !printedAnything) else { return nil }
            if !text.isEmpty { printedAnything = true }
            return text
        }
        if let text { write(Array(text.utf8)) }
    }

    /// Ends the reply with a newline, as a terminal expects.
    func finishLine() {
        write(Array("\n".utf8))
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
