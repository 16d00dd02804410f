import Glibc
import AgentCore
import FoundationEssentials
import GtkFront

/// `agent`: the GTK chat window. With no `--server` it runs the local model itself.
let usage = """
    Usage: agent [OPTIONS]
    Opens the Agent chat window.

    \(LaunchOptions.optionsHelp)
      --set-up-local-model  set up the local model at once when it is not installed
                            (otherwise the window offers it)
      --new-chat [TEXT]     a new chat in the running Agent (or a new one), sending TEXT if given
      --open CHAT_ID        that chat in the running Agent (agent-cli --list-chats shows the ids)
    """

/// Writes `text` and a newline to stderr (FoundationEssentials has no FileHandle).
func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

let options: LaunchOptions
let endpoint: ChatEndpoint?
do {
    options = try LaunchOptions.parse(Array(CommandLine.arguments.dropFirst()), acceptsWords: false)
    endpoint = try options.endpoint()
} catch {
    printError("agent: \(error.message)\nTry 'agent --help'.")
    exit(2)
}
if options.showHelp {
    print(usage)
    exit(0)
}
if options.showVersion {
    print("agent \(AppIdentity.version)")
    exit(0)
}

// Options for one run must not be handed to an already running instance.
let unique = options.usesSettings
if unique, let answered = RunningInstance.forward() { exit(answered) }

let settings: SettingsStore
do {
    settings = try SettingsStore()
} catch {
    printError("agent: \(error)")
    exit(1)
}
do {
    try KeyFileMigration.run(into: settings)
} catch {
    printError("agent: \(error)")
}

let status = MainActor.assumeIsolated {
    let consent = ConsentBroker()
    let toolbox = options.noTools ? Toolbox() : Toolbox.standard(
        settings: settings, locationSource: GeoClueLocationSource(), fixedLocation: options.location,
        askConsent: { await consent.ask() })
    let secrets = SecretStore()
    // MCP servers start after the first frame (AgentApplication) and stop on quit.
    let mcp = options.noTools ? nil : MCPServersModel.make(settings: settings, secrets: secrets, consent: consent)
    let preferences = AppPreferences(settings: settings, secrets: secrets, mcp: mcp) {
        ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox.standard(
            settings: settings, locationSource: GeoClueLocationSource(), askConsent: { await consent.ask() }), mcp: mcp?.hub)
    }
    // Read only by the connections of options given for this run (the settings' own reads them itself).
    let mcpTools = { mcp.map { MCPTools(hub: $0.hub, disabled: settings.disabledMCPTools) } }
    // Options given for this run win over the settings, until Preferences changes them.
    let connection = endpoint.map { ChatConnection(endpoint: $0, options: options.generation, toolbox: toolbox, mcp: mcpTools()) }
        ?? (options.usesSettings ? preferences.makeConnection()
            : ChatConnection(localServer: LocalModelServer(model: settings.localModel, threads: settings.localThreads),
                             options: options.generation, toolbox: toolbox, mcp: mcpTools()))
    var store: ChatStore?
    var storeProblem: String?
    do {
        store = try ChatStore()
    } catch {
        storeProblem = "Your chats could not be opened (\(ChatStore.defaultFile.path)): \(error)\n\n"
            + "Agent works without saving until this is fixed."
    }
    let viewModel = ChatViewModel(connection: connection, consent: consent, store: store,
                                  harnessAppIDPrefix: "\(AppIdentity.applicationID).\(settings.installationID.prefix(8))")
    viewModel.contextBudget = settings.contextBudget
    viewModel.knowledgeShare = settings.knowledgeShare
    viewModel.defaultSystemPrompt = settings.systemPrompt
    let library = store.map { ChatLibrary(store: $0, viewModel: viewModel, settings: settings) }
    let application = AgentApplication(viewModel: viewModel, library: library, preferences: preferences, storeProblem: storeProblem,
                                       unique: unique)
    application.setsUpLocalModel = options.setUpLocalModel
    return application.run()
}
exit(status)
