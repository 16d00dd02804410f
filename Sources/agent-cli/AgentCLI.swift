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

        Stored chats (the app's own, in $XDG_DATA_HOME/\(AppIdentity.applicationID)/chats.sqlite):
          --chat ID|new       continue a stored chat, or start one (its id goes to stderr); the turn is saved
                              (an existing chat keeps the model chosen for it in the window, unless --model is given)
          --list-presets      print the presets: NAME<TAB>what they set
          --list-chats        print the chats: id, last use, title
          --export ID|all     print a chat (or all chats) …
          --format md|json    … as Markdown (the default; one chat) or JSON (imports back exactly)
          --import FILE       add the chats in a JSON export

        Models and servers:
          --discover          print the model servers running on this computer (127.0.0.1 and ::1, the usual ports):
                              URL<TAB>PROTOCOL<TAB>MODEL[,MODEL…]; nothing when none is found
          --list-models       print the models of --server (with --protocol), or of the local runtime, one a line

        MCP servers (tools from the Model Context Protocol; nothing is read unless asked):
          --mcp-config FILE   use the servers in FILE ({"mcpServers": {...}} as Claude Desktop, Cursor, VS Code write it);
                              they start without asking
          --mcp               use the app's own servers ($XDG_CONFIG_HOME/\(AppIdentity.applicationID)/mcp.json)
          --list-tools        print the tools the model would get: NAME<TAB>SOURCE<TAB>DESCRIPTION
          --tools NAME[,NAME…]  offer the model only these tools (a small model copes with few)
          --allow-tools all|NAME[,NAME…]   approve these tool calls ahead (without a terminal, others are refused)
          --call-tool NAME [--arguments JSON] [--repeat N]   call one tool yourself and print its result
                              (with --repeat, each call's time in microseconds goes to stderr)

        Files:
          --attach FILE       send FILE with the message: the text of a text, code or PDF file, fenced and named, or an
                              image (PNG, JPEG, WebP, GIF) for a vision model; repeatable. A file that cannot be
                              attached, or does not fit the context budget, stops agent-cli with status 2 before
                              anything is sent.
          --knowledge DIR     ask about the files in DIR: it is indexed (only what changed since the last run) and the
                              best passages go with the question; repeatable. The sources go to stderr as
                              "sources: FILE[, FILE…]".
          --passages          print the passages --knowledge finds for the prompt (and how long finding them took, on
                              stderr), and send nothing

        Reasoning models:
          --show-reasoning    write the model's thinking to stderr as it streams (stdout has the answer alone)

        Ollama's models (the server is spoken to as Ollama; --server defaults to \(CLIOllama.defaultServer)):
          --pull NAME         download the model NAME onto the server (qwen3:4b, say); progress with a percentage on stderr
          --delete NAME       delete the model NAME from the server
                              Errors are Ollama's own words; exit status 1 on failure, 130 when interrupted.

        Tool calls are shown on stderr. Exit status: 0 on a complete reply, 1 on any failure,
        2 on a usage error, 130 when interrupted.
        """

    @MainActor
    static func main() async {
        let options: LaunchOptions
        do {
            options = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()), acceptsWords: true)
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
        if options.pullModel != nil || options.deleteModel != nil { await CLIOllama.run(options) }
        let endpoint: ChatEndpoint?
        do {
            endpoint = try options.endpoint()
        } catch {
            fail(usage: error.message)
        }
        if options.discover {
            await CLIModels.discover()
            return
        }
        if options.listModels {
            if !(await CLIModels.listModels(endpoint)) { exit(1) }
            return
        }
        if options.listChats || options.listPresets || options.export != nil || options.importFile != nil {
            manageChats(options)
            return
        }
        let settings: SettingsStore
        do {
            settings = try SettingsStore()
        } catch {
            writeError("agent-cli: error: \(error)")
            exit(1)
        }
        do {
            try KeyFileMigration.run(into: settings)
        } catch {
            writeError("agent-cli: \(error)")
        }
        let toolbox = options.noTools ? Toolbox() : Toolbox.standard(
            settings: settings, locationSource: GeoClueLocationSource(), fixedLocation: options.location,
            askConsent: { await TerminalConsent.askLocation() })
        let mcp = options.noTools ? nil : CLIServers.tools(options, settings: settings)
        if options.listTools || options.callTool != nil {
            var succeeded = true
            if options.listTools {
                await CLIServers.listTools(toolbox: toolbox, mcp: mcp)
            } else {
                succeeded = await CLIServers.callTool(options, toolbox: toolbox, mcp: mcp)
            }
            await mcp?.hub.stopAll()
            if !succeeded { exit(1) }
            return
        }
        var prompt = options.words.joined(separator: " ")
        if prompt.isEmpty {
            prompt = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !prompt.isEmpty || !options.attachments.isEmpty else {
            fail(usage: "no prompt: give it as words or on standard input")
        }
        // Every file is read and checked before anything is sent.
        let user: ChatMessage
        do {
            let files = try options.attachments.map { (path) throws(AttachedFile.Refusal) in try AttachedFile.read(URL(filePath: path)) }
            user = ChatMessage(role: .user, text: prompt, state: .sending, attachments: files)
            try AttachmentMessage.check(user, budget: settings.contextBudget)
        } catch {
            fail(usage: "cannot attach: \(error)")
        }
        let passages = CLIKnowledge.passages(for: prompt, folders: options.knowledge, settings: settings)
        if options.printPassages {
            CLIKnowledge.print(passages)
            return
        }
        var connection: ChatConnection
        if let endpoint {
            connection = ChatConnection(endpoint: endpoint, options: options.generation, toolbox: toolbox, mcp: mcp)
        } else {
            connection = ChatConnection(localServer: LocalModelServer(), options: options.generation, toolbox: toolbox, mcp: mcp)
        }
        connection = CLIChatModel.continuing(connection, options: options, settings: settings)
        if connection.isLocal { writeError("agent-cli: using the local model \(connection.modelName)") }
        connection.onlyTools = options.onlyTools
        if let mcp { await CLIServers.start(mcp) }

        let stored: StoredChat?
        do {
            stored = try options.chat.map {
                try StoredChat($0, store: try ChatStore(), user: user, model: connection.modelName, settings: settings)
            }
        } catch {
            writeError("agent-cli: error: \(ChatError.describe(error))")
            await mcp?.hub.stopAll()
            exit(1)
        }
        if let stored { writeError("agent-cli: chat \(stored.chat.id.uuidString)") }
        let printer = ReplyPrinter(showsReasoning: options.showReasoning)
        let appID = "\(AppIdentity.applicationID).\(settings.installationID.prefix(8))."
            + (stored?.chat.id.uuidString.lowercased() ?? "cli")
        let userBudget = settings.contextBudget
        let reply = Task { @MainActor in
            let turn = try await connection.turn(appID: appID)
            try Task.checkCancellation()
            // The local model's budget is known once its server is up.
            var context = stored?.context(budget: connection.contextBudget(default: userBudget)) ?? [user]
            if let last = context.last, last.role == .user {
                context[context.count - 1] = KnowledgePrompt.compose(last, passages: passages)
            }
            try await turn.run(context: context) { event in
                printer.handle(event)
                stored?.handle(event)
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
        stored?.finish(result, interrupted: interrupted)
        printer.finishLine()
        var failure: (any Error)?
        if case .failure(let error) = result { failure = await connection.explain(error) }
        await connection.shutdownAndWait()
        await mcp?.hub.stopAll()
        if let failure, !(failure is CancellationError) {
            writeError("agent-cli: error: \(ChatError.describe(failure))")
            exit(1)
        }
        if printer.hadProblems || stored?.hadSaveFailure == true { exit(1) }
        if interrupted { exit(130) }
    }

    /// `--list-chats`, `--list-presets`, `--export`, `--import`: the store without a model.
    static func manageChats(_ options: LaunchOptions) {
        do {
            let store = try ChatStore()
            if let file = options.importFile {
                let text = String(decoding: try Data(contentsOf: URL(filePath: file)), as: UTF8.self)
                let imported = try store.importChats(ChatArchive.parse(text))
                print("imported \(imported.count) chat\(imported.count == 1 ? "" : "s")")
            }
            if options.listPresets { try CLIPresets.list(store) }
            if options.listChats {
                for chat in try store.chats() {
                    print("\(chat.id.uuidString)\t\(chat.updated.formatted(.iso8601))\t\(chat.title)")
                }
            }
            if let export = options.export {
                let chats = export == "all" ? try store.archiveAll() : try UUID(uuidString: export).flatMap { try store.archive($0) }.map { [$0] } ?? []
                guard !chats.isEmpty || export == "all" else { throw StoredChat.UnknownChat(id: export) }
                if options.exportFormat == "json" {
                    FileHandle.standardOutput.write(Data(ChatArchive.json(chats).utf8))
                } else {
                    FileHandle.standardOutput.write(Data(chats.map(ChatArchive.markdown).joined(separator: "\n---\n\n").utf8))
                }
            }
        } catch {
            writeError("agent-cli: error: \(ChatError.describe(error))")
            exit(1)
        }
    }

    static func fail(usage message: String) -> Never {
        writeError("agent-cli: \(message)\nTry 'agent-cli --help'.")
        exit(2)
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
