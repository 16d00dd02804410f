import FoundationEssentials

/// The command-line options `agent` and `agent-cli` share, for one run.
public struct LaunchOptions: Sendable, Equatable {
    public var server: String?
    public var apiPath: String?
    public var model: String?
    public var apiKeyEnvironmentVariable: String?
    public var caFile: String?
    /// The wire protocol (`--protocol`); the default API path follows it.
    public var protocolKind = ChatProtocol.openai
    /// A location for this run that `get_location` returns without asking (`--location LAT,LON`).
    public var location: Coordinates?
    /// No tools are offered to the model (`--no-tools`).
    public var noTools = false
    /// Sampling settings for this run (`--temperature`, `--seed`, `--max-tokens`).
    public var generation = GenerationOptions()
    /// How long a server may send nothing; nil: wait for ever (`--idle-timeout 0`).
    public var idleTimeout: Duration? = HTTPRequest.defaultIdleTimeout
    /// agent: a new chat or a stored one, in the running instance if there is one.
    public var windowRequest: WindowRequest?
    /// agent-cli: continue a stored chat by id, or `new` to start one.
    public var chat: String?
    /// agent-cli: answer the last question of the chat's branch again, as a new version of its reply (`--regenerate`).
    public var regenerate = false
    /// agent-cli: send the prompt as a new version of this user message of the chat (`--edit MESSAGE_ID`).
    public var editMessage: UUID?
    /// agent-cli: the chat's system prompt (`--system TEXT`).
    public var systemPrompt: String?
    /// agent-cli: start the new chat from the preset of this name (`--preset NAME`).
    public var preset: String?
    /// agent-cli: list the presets (`--list-presets`).
    public var listPresets = false
    /// agent-cli: list the stored chats.
    public var listChats = false
    /// agent-cli: print a stored chat (an id, or `all`) in `exportFormat`.
    public var export: String?
    /// `md` or `json`.
    public var exportFormat = "md"
    /// agent-cli: add the chats in this JSON export to the store.
    public var importFile: String?
    /// agent-cli: the MCP servers in this file (`--mcp-config FILE`); they start without asking.
    public var mcpConfig: String?
    /// agent-cli: the MCP servers in the app's own `mcp.json` (`--mcp`).
    public var useAppMCP = false
    /// agent-cli: print the tools the model would be offered (`--list-tools`).
    public var listTools = false
    /// agent-cli: tool calls approved ahead (`--allow-tools all|NAME,…`); nil: ask.
    public var allowedTools: ToolAllowance?
    /// agent-cli: files whose text goes into the message (`--attach FILE`, repeatable).
    public var attachments: [String] = []
    /// agent-cli: folders whose best passages go with the question (`--knowledge DIR`, repeatable).
    public var knowledge: [String] = []
    /// agent-cli: print the passages `--knowledge` finds for the prompt, send nothing (`--passages`).
    public var printPassages = false
    /// `--show-reasoning`: a reasoning model's thinking goes to stderr as it streams.
    public var showReasoning = false
    /// agent-cli: offer the model only these tools, by the names `--list-tools` prints (`--tools`).
    public var onlyTools: Set<String>?
    /// agent-cli: call one tool directly (`--call-tool NAME --arguments JSON [--repeat N]`).
    public var callTool: String?
    public var toolArguments: String?
    public var repeatCount = 1
    /// agent-cli: pull this model onto the Ollama server (`--pull NAME`).
    public var pullModel: String?
    /// agent-cli: delete this model from the Ollama server (`--delete NAME`).
    public var deleteModel: String?
    /// agent-cli: print the model servers running on this computer (`--discover`).
    public var discover = false
    /// agent-cli: print the models of the server given, or the local runtime's (`--list-models`).
    public var listModels = false
    /// The prompt words (agent-cli only).
    public var words: [String] = []
    public var showHelp = false
    /// agent: set up the local model at once when it is missing (`--set-up-local-model`).
    public var setUpLocalModel = false
    public var showVersion = false

    /// The model asked for when a server is given without `--model`.
    public static let defaultRemoteModel = "gemma3:270m"

    public init() {}

    /// Whether this run leaves the server, tools and generation to the saved settings.
    public var usesSettings: Bool {
        server == nil && location == nil && !noTools && generation == GenerationOptions()
    }

    /// Why the command line was not understood.
    public struct ParseError: Error, Equatable, LocalizedError {
        public let message: String
        public var errorDescription: String? { message }
    }

    private static let valueOptions = ["--server", "--api", "--model", "--api-key-env", "--ca-file",
                                       "--temperature", "--seed", "--max-tokens", "--protocol", "--location", "--idle-timeout"]
    private static let cliValueOptions = ["--chat", "--export", "--format", "--import", "--mcp-config", "--allow-tools",
                                          "--call-tool", "--arguments", "--repeat", "--tools", "--attach", "--knowledge",
                                          "--pull", "--delete", "--edit", "--system", "--preset"]

    /// Parses `arguments` (without the program name). `acceptsWords` allows a prompt.
    public static func parse(_ arguments: [String], acceptsWords: Bool) throws(ParseError) -> LaunchOptions {
        var options = LaunchOptions()
        var index = 0
        var onlyWords = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyWords || !argument.hasPrefix("--") || argument == "-" {
                guard acceptsWords else { throw ParseError(message: tr("unexpected argument “%s”", argument)) }
                options.words.append(argument)
                continue
            }
            if argument == "--" {
                onlyWords = true
                continue
            }
            if argument == "--help" { options.showHelp = true; continue }
            if argument == "--version" { options.showVersion = true; continue }
            if argument == "--no-tools" { options.noTools = true; continue }
            if argument == "--set-up-local-model", !acceptsWords { options.setUpLocalModel = true; continue }
            if !acceptsWords, argument == "--new-chat" || argument.hasPrefix("--new-chat=") {
                // The message is optional: the next argument when it is not an option.
                var message = argument.hasPrefix("--new-chat=") ? String(argument.dropFirst("--new-chat=".count)) : nil
                if message == nil, index < arguments.count, !arguments[index].hasPrefix("--") {
                    message = arguments[index]
                    index += 1
                }
                options.windowRequest = .newChat(message: message.flatMap { $0.trimmed.isEmpty ? nil : $0 })
                continue
            }
            // D-Bus activation (the search provider's .service file): GApplication's own option.
            if argument == "--gapplication-service", !acceptsWords { continue }
            if argument == "--list-chats", acceptsWords { options.listChats = true; continue }
            if argument == "--list-presets", acceptsWords { options.listPresets = true; continue }
            if argument == "--regenerate", acceptsWords { options.regenerate = true; continue }
            if argument == "--list-tools", acceptsWords { options.listTools = true; continue }
            if argument == "--passages", acceptsWords { options.printPassages = true; continue }
            if argument == "--show-reasoning", acceptsWords { options.showReasoning = true; continue }
            if argument == "--mcp", acceptsWords { options.useAppMCP = true; continue }
            if argument == "--discover", acceptsWords { options.discover = true; continue }
            if argument == "--list-models", acceptsWords { options.listModels = true; continue }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard valueOptions.contains(name) || (acceptsWords && cliValueOptions.contains(name)) || (!acceptsWords && name == "--open") else {
                throw ParseError(message: tr("unknown option “%s”", name))
            }
            if value == nil {
                guard index < arguments.count else { throw ParseError(message: tr("option %s needs a value", name)) }
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty else { throw ParseError(message: tr("option %s needs a value", name)) }
            switch name {
            case "--server": options.server = value
            case "--api": options.apiPath = value
            case "--model": options.model = value
            case "--api-key-env": options.apiKeyEnvironmentVariable = value
            case "--ca-file": options.caFile = value
            case "--chat":
                guard value == "new" || UUID(uuidString: value) != nil else { throw ParseError(message: tr("--chat needs a chat id or “new”")) }
                options.chat = value
            case "--export":
                guard value == "all" || UUID(uuidString: value) != nil else { throw ParseError(message: tr("--export needs a chat id or “all”")) }
                options.export = value
            case "--format":
                guard value == "md" || value == "json" else { throw ParseError(message: tr("--format must be md or json")) }
                options.exportFormat = value
            case "--edit":
                guard let id = UUID(uuidString: value) else {
                    throw ParseError(message: tr("--edit needs a message id (--export ID --format json shows them)"))
                }
                options.editMessage = id
            case "--open":
                guard let id = UUID(uuidString: value) else { throw ParseError(message: tr("--open needs a chat id (agent-cli --list-chats shows them)")) }
                options.windowRequest = .open(id)
            case "--system": options.systemPrompt = value
            case "--preset": options.preset = value
            case "--import": options.importFile = value
            case "--mcp-config": options.mcpConfig = value
            case "--attach": options.attachments.append(value)
            case "--pull": options.pullModel = value
            case "--delete": options.deleteModel = value
            case "--knowledge": options.knowledge.append(value)
            case "--allow-tools": options.allowedTools = ToolAllowance(parsing: value)
            case "--call-tool": options.callTool = value
            case "--tools": options.onlyTools = ToolAllowance.names(in: value)
            case "--arguments": options.toolArguments = value
            case "--repeat":
                guard let count = Int(value), count > 0 else { throw ParseError(message: tr("--repeat needs a whole number > 0")) }
                options.repeatCount = count
            case "--protocol":
                guard let kind = ChatProtocol(rawValue: value) else {
                    throw ParseError(message: tr("--protocol must be one of: %s", ChatProtocol.allCases.map(\.rawValue).joined(separator: ", ")))
                }
                options.protocolKind = kind
            case "--location":
                guard let location = Coordinates(parsing: value) else {
                    throw ParseError(message: tr("--location needs LAT,LON in degrees, e.g. 48.8566,2.3522"))
                }
                options.location = location
            case "--temperature":
                // "inf" reads as a Double, and JSON has no infinity: it would go out as null.
                guard let number = Double(value), number >= 0, number.isFinite else {
                    throw ParseError(message: tr("--temperature needs a number ≥ 0"))
                }
                options.generation.temperature = number
            case "--seed":
                guard let number = Int(value) else { throw ParseError(message: tr("--seed needs a whole number")) }
                options.generation.seed = number
            case "--idle-timeout":
                guard let seconds = Int(value), seconds >= 0 else { throw ParseError(message: tr("--idle-timeout needs whole seconds ≥ 0")) }
                options.idleTimeout = seconds == 0 ? nil : .seconds(seconds)
            default:
                guard let number = Int(value), number > 0 else { throw ParseError(message: tr("--max-tokens needs a whole number > 0")) }
                options.generation.maxTokens = number
            }
        }
        return options
    }

    /// The endpoint these options name, or nil when no server is given (use the local model).
    public func endpoint(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ParseError) -> ChatEndpoint? {
        guard let server else {
            // The MCP servers agent-cli is given trust --ca-file too, with or without a chat server.
            let caFileUnused = caFile != nil && mcpConfig == nil && !useAppMCP
            if apiKeyEnvironmentVariable != nil || caFileUnused || apiPath != nil || model != nil || protocolKind != .openai {
                throw ParseError(message: tr("--protocol, --api, --model, --api-key-env and --ca-file need --server (without it the local model is used)"))
            }
            try checkCAFile()
            return nil
        }
        guard ChatEndpoint.isUsable(serverURL: server) else {
            throw ParseError(message: tr("--server must be an http:// or https:// URL with a host, not “%s”", server))
        }
        var key: APIKey?
        if let variable = apiKeyEnvironmentVariable {
            guard let value = environment[variable], !value.isEmpty else {
                throw ParseError(message: tr("the environment variable %s named by --api-key-env is not set", variable))
            }
            key = APIKey(value)
        }
        try checkCAFile()
        var endpoint = ChatEndpoint(serverURL: server, protocol: protocolKind, apiPath: apiPath,
                                    model: model ?? Self.defaultRemoteModel, apiKey: key, caFile: caFile)
        endpoint.idleTimeout = idleTimeout
        return endpoint
    }

    /// Refuses a `--ca-file` that cannot be read, before anything is asked.
    private func checkCAFile() throws(ParseError) {
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ParseError(message: tr("cannot read the CA certificate file “%s”", caFile))
        }
    }

    /// The options' shared help text.
    public static var optionsHelp: String {
        [
            // TRANSLATORS: agent's and agent-cli's --help. Keep the options (--server URL …) as they are, and each
            // description in its column.
            tr("  --server URL        an OpenAI-compatible server or a harness (default: the local model)"),
            tr("  --protocol P        openai (default), ollama, or llmtools (the tool-calling harness)"),
            tr("  --api PATH          the API path on that server (default by protocol: /v1/chat/completions, /api/chat,\n                      /llmtools; the plain harness uses /llmprompt)"),
            tr("  --model NAME        the model to ask for (default with --server: %s)", defaultRemoteModel),
            tr("  --api-key-env VAR   read a Bearer API key from environment variable VAR"),
            tr("  --ca-file PATH      trust the CA certificate in PATH (a self-signed server)"),
            tr("  --temperature T, --seed N, --max-tokens N   sampling settings sent with each request"),
            tr("  --idle-timeout S    give up when the server sends nothing for S seconds (default 60; 0: never)"),
            tr("  --location LAT,LON  the location get_location reports for this run (no consent asked)"),
            tr("  --no-tools          offer the model no tools"),
            "  --help, --version",
        ].joined(separator: "\n")
    }
}
