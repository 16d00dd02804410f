import AgentCore
import Foundation
import Synchronization

/// `agent-cli`: one prompt, one streamed reply, on stdout. Errors go to stderr and set a
/// non-zero exit status; whatever text arrived is still printed.
@main
struct AgentCLI {
    /// `--help`: each option's line, or paragraph, translated on its own.
    static var usage: String {
        [
            // TRANSLATORS: agent-cli --help. Keep the options (--chat ID|new …), file names and the formats
            // (NAME<TAB>…) as they are, and each description in its column.
            tr("Usage: agent-cli [OPTIONS] [PROMPT...]\nSends PROMPT (or standard input when no words are given) and prints the reply as it streams."),
            "",
            LaunchOptions.optionsHelp,
            "",
            tr("Stored chats (the app's own, in $XDG_DATA_HOME/%s/chats.sqlite):", AppIdentity.applicationID),
            tr("  --chat ID|new       continue a stored chat on the branch it shows, or start one (its id goes to stderr);\n                      the turn is saved"),
            tr("  --regenerate        with --chat ID and no prompt: answer the chat's last question again; the new reply is\n                      kept beside the old one and its branch is shown from then on"),
            tr("  --edit MESSAGE_ID   with --chat ID: the prompt becomes a new version of that message of yours (its files\n                      kept, --attach adds more), answered with the chat up to it; its branch is shown from then on"),
            tr("  --system TEXT       the system prompt"),
            tr("  --preset NAME       start from a preset's settings (with --chat new, or for one prompt); options given win"),
            tr("  --list-presets      print the presets: NAME<TAB>what they set"),
            tr("                      A new chat keeps --system, --temperature, --max-tokens, --model, --no-tools and --preset as\n                      its settings; an existing chat asks with its own (the model chosen for it too), which\n                      --system, --temperature and --max-tokens change (as the window's settings do), while\n                      --model and --no-tools hold for that turn alone. Without --chat they hold for one prompt."),
            tr("  --list-chats        print the chats: id, last use, title"),
            tr("  --export ID|all     print a chat (or all chats) …"),
            tr("  --format md|json    … as Markdown (the default; one chat, the branch shown) or JSON (imports back exactly;\n                      every branch, each message's id and parent)"),
            tr("  --import FILE       add the chats in a JSON export"),
            "",
            tr("Models and servers:"),
            tr("  --discover          print the model servers running on this computer (127.0.0.1 and ::1, the usual ports):\n                      URL<TAB>PROTOCOL<TAB>MODEL[,MODEL…]; nothing when none is found"),
            tr("  --list-models       print the models of --server (with --protocol), or of the local runtime, one a line"),
            "",
            tr("MCP servers (tools from the Model Context Protocol; nothing is read unless asked):"),
            tr("  --mcp-config FILE   use the servers in FILE ({\"mcpServers\": {...}} as Claude Desktop, Cursor, VS Code write it);\n                      they start without asking"),
            tr("  --mcp               use the app's own servers ($XDG_CONFIG_HOME/%s/mcp.json)", AppIdentity.applicationID),
            tr("  --list-tools        print the tools the model would get: NAME<TAB>SOURCE<TAB>DESCRIPTION"),
            tr("  --tools NAME[,NAME…]  offer the model only these tools (a small model copes with few)"),
            tr("  --allow-tools all|NAME[,NAME…]   approve these tool calls ahead (without a terminal, others are refused)"),
            tr("  --call-tool NAME [--arguments JSON] [--repeat N]   call one tool yourself and print its result\n                      (with --repeat, each call's time in microseconds goes to stderr)"),
            "",
            tr("Files:"),
            tr("  --attach FILE       send FILE with the message: the text of a text, code or PDF file, fenced and named, or an\n                      image (PNG, JPEG, WebP, GIF) for a vision model; repeatable. A file that cannot be\n                      attached, or does not fit the context budget, stops agent-cli with status 2 before\n                      anything is sent."),
            tr("  --knowledge DIR     ask about the files in DIR: it is indexed (only what changed since the last run) and the\n                      best passages go with the question; repeatable. The sources go to stderr as\n                      \"sources: FILE[, FILE…]\"."),
            tr("  --passages          print the passages --knowledge finds for the prompt (and how long finding them took, on\n                      stderr), and send nothing"),
            "",
            tr("Reasoning models:"),
            tr("  --show-reasoning    write the model's thinking to stderr as it streams (stdout has the answer alone)"),
            "",
            tr("Ollama's models (the server is spoken to as Ollama; --server defaults to %s):", CLIOllama.defaultServer),
            tr("  --pull NAME         download the model NAME onto the server (qwen3:4b, say); progress with a percentage on stderr"),
            tr("  --delete NAME       delete the model NAME from the server"),
            tr("                      Errors are Ollama's own words; exit status 1 on failure, 130 when interrupted."),
            "",
            tr("Tool calls are shown on stderr. Exit status: 0 on a complete reply, 1 on any failure,\n2 on a usage error, 130 when interrupted."),
        ].joined(separator: "\n")
    }

    @MainActor
    static func main() async {
        StandardStreams.secure()
        await run()
        exit(0)
    }

    /// Ends agent-cli with `status`, as Glibc's `exit` does, once output that could not be
    /// written is told: it makes a success a failure (1); any other status stays.
    static func exit(_ status: Int32) -> Never {
        if let reason = StandardStreams.outputFailureReason {
            // TRANSLATORS: %s is the system's reason, e.g. "No space left on device".
            writeFailure(tr("cannot write to standard output: %s", reason))
            Glibc.exit(status == 0 ? 1 : status)
        }
        Glibc.exit(status)
    }

    @MainActor
    private static func run() async {
        Localization.setUp()
        let options: LaunchOptions
        do {
            options = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()), acceptsWords: true)
        } catch {
            fail(usage: error.message)
        }
        if options.showHelp {
            StandardStreams.line(usage)
            return
        }
        if options.showVersion {
            StandardStreams.line("agent-cli \(AppIdentity.version)")
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
            writeFailure("\(error)")
            exit(1)
        }
        do {
            try KeyFileMigration.run(into: settings)
        } catch {
            writeError("agent-cli: \(error)")
        }
        if options.listTools || options.callTool != nil {
            let (toolbox, mcp) = tools(options, settings: settings, offered: !options.noTools)
            // Before a server's launch is asked about: Ctrl+C there answers No and stops the run.
            let interruption = await CLIInterruption()
            let work = Task { @MainActor in
                guard options.listTools else { return await CLIServers.callTool(options, toolbox: toolbox, mcp: mcp) }
                await CLIServers.listTools(toolbox: toolbox, mcp: mcp)
                return true
            }
            interruption.stops { work.cancel() }
            let succeeded = await work.value
            await mcp?.hub.stopAll()
            if interruption.happened { exit(130) }
            if !succeeded { exit(1) }
            return
        }
        if let problem = CLIChatSetup.usageProblem(options) { fail(usage: problem) }
        let setup: CLIChatSetup
        do {
            setup = try CLIChatSetup(options, defaultPrompt: settings.systemPrompt)
        } catch {
            writeFailure(ChatError.describe(error))
            exit(1)
        }
        let point = question(options, setup: setup, budget: settings.contextBudget)
        let user = point.question
        let passages = CLIKnowledge.passages(for: user.text, folders: options.knowledge, settings: settings)
        if options.printPassages {
            CLIKnowledge.print(passages)
            return
        }
        let chatSettings = setup.turn
        let (toolbox, mcp) = tools(options, settings: settings, offered: chatSettings.toolsEnabled)
        var connection: ChatConnection
        if let endpoint {
            connection = ChatConnection(endpoint: endpoint, options: options.generation, toolbox: toolbox, mcp: mcp)
        } else {
            connection = ChatConnection(localServer: LocalModelServer(), options: options.generation, toolbox: toolbox, mcp: mcp)
        }
        connection = CLIChatModel.choosing(chatSettings.model, for: connection, options: options, settings: settings)
        if connection.isLocal { writeError("agent-cli: " + tr("using the local model %s", connection.modelName)) }
        connection.onlyTools = options.onlyTools
        // Before a server's launch is asked about: Ctrl+C there answers No and stops the run.
        let interruption = await CLIInterruption()
        if let mcp {
            let starting = Task { @MainActor in await CLIServers.start(mcp) }
            interruption.stops { starting.cancel() }
            await starting.value
        }

        let stored: StoredChat?
        do {
            if options.chat != nil, let store = setup.store {
                stored = try StoredChat(setup, store: store, at: point, model: connection.modelName)
            } else {
                stored = nil
            }
        } catch {
            writeFailure(ChatError.describe(error))
            await mcp?.hub.stopAll()
            exit(1)
        }
        if let stored { writeError("agent-cli: chat \(stored.chat.id.uuidString)") }
        let printer = ReplyPrinter(showsReasoning: options.showReasoning)
        let appID = "\(AppIdentity.applicationID).\(settings.installationID.prefix(8))."
            + (stored?.chat.id.uuidString.lowercased() ?? "cli")
        let userBudget = settings.contextBudget
        let reply = Task { @MainActor in
            // Stopped before it began (Ctrl+C at a server's launch): nothing is sent.
            try Task.checkCancellation()
            let turn = try await connection.turn(appID: appID, settings: chatSettings)
            try Task.checkCancellation()
            // The local model's budget is known once its server is up.
            let budget = connection.contextBudget(default: userBudget, settings: chatSettings)
            var context = stored?.context(budget: budget)
                ?? ContextWindow.select([user], systemPrompt: chatSettings.systemPrompt, budget: budget)
            if let last = context.last, last.role == .user {
                context[context.count - 1] = KnowledgePrompt.compose(last, passages: passages)
            }
            try await turn.run(context: context) { event in
                printer.handle(event)
                stored?.handle(event)
            }
        }
        printer.stopReply { reply.cancel() }
        interruption.stops { reply.cancel() }

        let result = await reply.result
        // A reply stopped because stdout failed is kept as one the user stopped.
        stored?.finish(result, interrupted: interruption.happened || StandardStreams.outputFailed)
        printer.finishLine()
        var failure: (any Error)?
        if case .failure(let error) = result { failure = await connection.explain(error) }
        await connection.shutdownAndWait()
        await mcp?.hub.stopAll()
        if let failure, !(failure is CancellationError) {
            writeFailure(ChatError.describe(failure))
            exit(1)
        }
        if printer.hadProblems || stored?.hadSaveFailure == true { exit(1) }
        if interruption.happened { exit(130) }
    }

    /// `--list-chats`, `--list-presets`, `--export`, `--import`: the store without a model.
    static func manageChats(_ options: LaunchOptions) {
        do {
            let store = try ChatStore()
            if let file = options.importFile {
                let bytes: [UInt8]
                do {
                    bytes = try FileDescriptorReading.contents(of: file)
                } catch {
                    // TRANSLATORS: %1$s is a file's path, %2$s the system's reason.
                    writeFailure(tr("could not read %1$s: %2$s", file, ChatError.describe(error)))
                    exit(1)
                }
                let imported = try store.importChats(ChatArchive.parse(String(decoding: bytes, as: UTF8.self)))
                StandardStreams.line(trn("imported %d chat", "imported %d chats", imported.count))
            }
            if options.listPresets { try CLIPresets.list(store) }
            if options.listChats {
                for chat in try store.chats() {
                    StandardStreams.line("\(chat.id.uuidString)\t\(chat.updated.formatted(.iso8601))\t\(chat.title)")
                }
            }
            if let export = options.export {
                let chats = export == "all" ? try store.archiveAll() : try UUID(uuidString: export).flatMap { try store.archive($0) }.map { [$0] } ?? []
                guard !chats.isEmpty || export == "all" else { throw StoredChat.UnknownChat(id: export) }
                if options.exportFormat == "json" {
                    StandardStreams.write(ChatArchive.json(chats))
                } else {
                    StandardStreams.write(chats.map(ChatArchive.markdown).joined(separator: "\n---\n\n"))
                }
            }
        } catch {
            writeFailure(ChatError.describe(error))
            exit(1)
        }
    }

    /// Agent's own tools and the MCP servers' the options name; none when not `offered`.
    private static func tools(_ options: LaunchOptions, settings: SettingsStore, offered: Bool) -> (Toolbox, MCPTools?) {
        guard offered else { return (Toolbox(), nil) }
        let toolbox = Toolbox.standard(settings: settings, locationSource: GeoClueLocationSource(), fixedLocation: options.location,
                                       askConsent: { await TerminalConsent.askLocation() })
        return (toolbox, CLIServers.tools(options, settings: settings))
    }

    /// The question the turn answers and its place in the chat: the prompt (the words, else
    /// standard input) with the files of `--attach`, all read and checked before anything is
    /// sent — or, with `--regenerate`, the chat's last question. Exits when there is none.
    private static func question(_ options: LaunchOptions, setup: CLIChatSetup, budget: Int) -> CLIBranches.Point {
        let chat = setup.existing?.id
        let store = options.chat == nil ? nil : setup.store
        do {
            if options.regenerate, let chat, let store { return try CLIBranches.regenerate(in: chat, store: store) }
        } catch {
            writeFailure(ChatError.describe(error))
            exit(1)
        }
        var prompt = options.words.joined(separator: " ")
        if prompt.isEmpty {
            let input = StandardStreams.readInput()
            guard input.error == 0 else {
                // TRANSLATORS: %s is the system's reason, e.g. "Is a directory".
                writeFailure(tr("cannot read standard input: %s", StandardStreams.describe(input.error)))
                exit(1)
            }
            prompt = input.text
        }
        prompt = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !prompt.isEmpty || !options.attachments.isEmpty else {
            fail(usage: tr("no prompt: give it as words or on standard input"))
        }
        let files: [AttachedFile]
        do {
            files = try options.attachments.map { (path) throws(AttachedFile.Refusal) in try AttachedFile.read(URL(filePath: path)) }
        } catch {
            fail(usage: tr("cannot attach: %s", "\(error)"))
        }
        let point: CLIBranches.Point
        do {
            if let edited = options.editMessage, let chat, let store {
                point = try CLIBranches.edit(edited, text: prompt, files: files, in: chat, store: store)
            } else {
                let message = ChatMessage(role: .user, text: prompt, state: .sending, attachments: files)
                point = try store.map { try CLIBranches.append(message, to: chat, store: $0) }
                    ?? CLIBranches.Point(history: [], question: message, isStored: false)
            }
        } catch {
            writeFailure(ChatError.describe(error))
            exit(1)
        }
        do throws(AttachedFile.Refusal) {
            try AttachmentMessage.check(point.question, budget: budget)
        } catch {
            // TRANSLATORS: a message was not sent; %s is why.
            fail(usage: tr("not sent: %s", "\(error)"))
        }
        return point
    }

    static func fail(usage message: String) -> Never {
        writeError("agent-cli: \(message)\n" + tr("Try 'agent-cli --help'."))
        exit(2)
    }

    /// Writes "agent-cli: error: `message`" to stderr.
    static func writeFailure(_ message: String) {
        // TRANSLATORS: the start of agent-cli's error messages on stderr; %s is what went wrong.
        writeError("agent-cli: " + tr("error: %s", message))
    }

    static func writeError(_ text: String) {
        StandardStreams.writeError(text + "\n")
    }
}
