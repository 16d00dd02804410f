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

        Tool calls are shown on stderr. Exit status: 0 on a complete reply, 1 on any failure,
        2 on a usage error, 130 when interrupted.
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

        let settings = SettingsStore()
        let toolbox = options.noTools ? Toolbox() : Toolbox.standard(
            settings: settings, locationSource: GeoClueLocationSource(), fixedLocation: options.location,
            askConsent: { await TerminalConsent.ask() })
        let connection: ChatConnection
        if let endpoint {
            connection = ChatConnection(endpoint: endpoint, options: options.generation, toolbox: toolbox)
        } else {
            connection = ChatConnection(localServer: LocalModelServer(), options: options.generation, toolbox: toolbox)
            writeError("agent-cli: using the local model \(connection.modelName)")
        }

        let printer = ReplyPrinter()
        let appID = "\(AppIdentity.applicationID).\(settings.installationID.prefix(8)).cli"
        let reply = Task { @MainActor in
            let turn = try await connection.turn(appID: appID)
            try Task.checkCancellation()
            try await turn.run(context: [ChatMessage(role: .user, text: prompt, state: .done)]) { event in
                printer.handle(event)
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
        if printer.hadProblems { exit(1) }
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
