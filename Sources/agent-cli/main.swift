import AgentCore
import Foundation

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
        guard !prompt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            fail(usage: "no prompt: give it as words or on standard input")
        }

        let connection: ChatConnection
        if let endpoint {
            connection = ChatConnection(endpoint: endpoint, options: options.generation)
        } else {
            connection = ChatConnection(localServer: LocalModelServer(), options: options.generation)
            writeError("agent-cli: using the local model \(connection.modelName)")
        }
        let viewModel = ChatViewModel(connection: connection)
        let printer = ReplyPrinter(viewModel: viewModel)
        viewModel.observe { printer.handle($0) }

        var interrupted = false
        signal(SIGINT, SIG_IGN)
        let interruption = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interruption.setEventHandler {
            MainActor.assumeIsolated {
                interrupted = true
                viewModel.stop()
            }
        }
        interruption.resume()

        viewModel.draft = prompt
        viewModel.send()
        await viewModel.waitUntilIdle()
        printer.finishLine()
        connection.shutdown()

        if viewModel.showError {
            writeError("agent-cli: error: \(viewModel.errorMessage)")
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

/// Writes each reply's new text to stdout as it arrives, one write per update.
@MainActor
final class ReplyPrinter {
    private let viewModel: ChatViewModel
    private var printedBytes: [UUID: Int] = [:]

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
    }

    func handle(_ change: ChatViewModel.Change) {
        guard case .messageChanged(let index) = change else { return }
        let message = viewModel.conversation[index]
        guard message.role == .assistant else { return }
        let utf8 = message.text.utf8
        let already = printedBytes[message.id, default: 0]
        guard utf8.count > already else { return }
        let start = utf8.index(utf8.startIndex, offsetBy: already)
        write(Array(utf8[start...]))
        printedBytes[message.id] = utf8.count
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
