import Glibc
import AgentCore
import FoundationEssentials
import GtkFront

// Before GLib reads the data folders (they hold the icons of a build run from the tree).
ResourceLocator.exposeSourceTreeIcons()
// Before anything is printed: messages in the user's language.
Localization.setUp()

/// `agent`: the GTK chat window. With no `--server` it runs the local model itself.
func usage() -> String {
    [
        // TRANSLATORS: agent --help. Keep the options (--new-chat [TEXT] …) as they are, and each description in its column.
        tr("Usage: agent [OPTIONS]\nOpens the Agent chat window."),
        "",
        LaunchOptions.optionsHelp,
        tr("  --set-up-local-model  set up the local model at once when it is not installed\n                        (otherwise the window offers it)"),
        tr("  --new-chat [TEXT]     a new chat in the running Agent (or a new one), sending TEXT if given"),
        tr("  --open CHAT_ID        that chat in the running Agent (agent-cli --list-chats shows the ids)"),
    ].joined(separator: "\n")
}

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
    printError("agent: \(error.message)\n" + tr("Try 'agent --help'."))
    exit(2)
}
if options.showHelp {
    print(usage())
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
    // The tools of the connections of options given for this run (the settings' own read theirs).
    let toolboxOfThisRun: @MainActor () -> Toolbox = {
        options.noTools ? Toolbox() : Toolbox.standard(
            settings: settings, locationSource: GeoClueLocationSource(), fixedLocation: options.location,
            askConsent: { await consent.ask() })
    }
    let secrets = SecretStore()
    // MCP servers start after the first frame (AgentApplication) and stop on quit.
    let mcp = options.noTools ? nil : MCPServersModel.make(settings: settings, secrets: secrets, consent: consent)
    let mcpTools: @MainActor () -> MCPTools? = { mcp.map { MCPTools(hub: $0.hub, disabled: settings.disabledMCPTools) } }
    let settingsConnection: @MainActor () -> ChatConnection = {
        ChatConnection.fromSettings(settings, secrets: secrets, toolbox: Toolbox.standard(
            settings: settings, locationSource: GeoClueLocationSource(), askConsent: { await consent.ask() }), mcp: mcp?.hub)
    }
    // Options given for this run win over the settings: a --server until another destination is
    // chosen in Preferences › Servers, the others until Preferences changes what they set.
    let runConnection = endpoint.map { endpoint -> @MainActor () -> ChatConnection in
        { ChatConnection(endpoint: endpoint, options: options.generation, toolbox: toolboxOfThisRun(), mcp: mcpTools()) }
    }
    let connection = runConnection?()
        ?? (options.usesSettings ? settingsConnection()
            : ChatConnection(localServer: LocalModelServer(model: settings.localModel, threads: settings.localThreads),
                             options: options.generation, toolbox: toolboxOfThisRun(), mcp: mcpTools()))
    let preferences = AppPreferences(settings: settings, secrets: secrets, mcp: mcp,
                                     serverOfThisRun: runConnection.map { ServerOfThisRun(name: connection.locationDescription, makeConnection: $0) },
                                     makeConnection: settingsConnection)
    var store: ChatStore?
    var storeProblem: String?
    do {
        store = try ChatStore()
    } catch {
        // TRANSLATORS: %1$s is the chat database's path, %2$s why it could not be opened.
        storeProblem = tr("Your chats could not be opened (%1$s): %2$s\n\nAgent works without saving until this is fixed.",
                          ChatStore.defaultFile.path, "\(error)")
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
