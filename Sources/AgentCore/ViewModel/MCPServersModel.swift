import Dispatch
import FoundationEssentials

/// The MCP servers as Preferences › Tools shows and edits them, free of any toolkit: the
/// entries of `mcp.json` with each server's status, and the user's intents — add by form
/// or pasted JSON (a pasted stdio command is asked about before it runs), remove, switch a
/// server or a single tool off, take an "Always Allow" back, retry. Every change to the
/// file is written at once and the running servers follow it.
@MainActor
public final class MCPServersModel {
    /// A reference filled in once the model exists (the hub's status callback needs it first).
    private final class Box<Value: AnyObject>: @unchecked Sendable {
        weak var value: Value?
    }

    public nonisolated let hub: MCPHub
    public let file: URL
    private let settings: SettingsStore
    private let secrets: SecretStore
    private let consent: ConsentBroker
    private let environment: [String: String]
    private var observers: [Int: () -> Void] = [:]
    private var nextObserver = 0
    /// The entries `mcp.json` holds, and why some of them cannot be used.
    public private(set) var configs: [MCPServerConfig] = []
    public private(set) var problems: [String] = []

    public init(hub: MCPHub, file: URL = MCPConfigDocument.defaultLocation, settings: SettingsStore, secrets: SecretStore,
                consent: ConsentBroker, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.hub = hub
        self.file = file
        self.settings = settings
        self.secrets = secrets
        self.consent = consent
        self.environment = environment
    }

    /// The app's servers: `mcp.json` in the config folder, approvals through `consent`,
    /// status changes brought to the main actor.
    public static func make(settings: SettingsStore, secrets: SecretStore, consent: ConsentBroker,
                            file: URL = MCPConfigDocument.defaultLocation) -> MCPServersModel {
        let approver = AskingToolApprover(settings: settings, consent: consent)
        let model = Box<MCPServersModel>()
        let relay = MainActorRelay<Void> { _ in model.value?.statusChanged() }
        let hub = MCPHub(configs: [], approver: approver, approveLaunch: { await approver.approveLaunch($0) },
                         onChange: { relay.push(()) })
        let created = MCPServersModel(hub: hub, file: file, settings: settings, secrets: secrets, consent: consent)
        model.value = created
        return created
    }

    /// Stops every server, waiting at most `limit` (for the app's last moments, on the
    /// main thread, where nothing can be awaited).
    public nonisolated func stopAllBlocking(limit: Duration = .seconds(5)) {
        let done = DispatchSemaphore(value: 0)
        let hub = hub
        Task.detached {
            await hub.stopAll()
            done.signal()
        }
        _ = done.wait(timeout: .now() + .milliseconds(limit.milliseconds))
    }

    /// Registers a handler for every change (entries or a server's status).
    /// Returns what `stopObserving` takes when the observer goes (a Preferences window closes).
    @discardableResult
    public func observe(_ handler: @escaping () -> Void) -> Int {
        defer { nextObserver += 1 }
        observers[nextObserver] = handler
        return nextObserver
    }

    public func stopObserving(_ observer: Int) {
        observers[observer] = nil
    }

    /// Called on the main actor when a server's status changed (the hub reports it from any thread).
    public func statusChanged() {
        for observer in observers.values { observer() }
    }

    /// Reads `mcp.json` and brings the servers in line with it (starting new ones).
    public func load() async {
        let document: MCPConfigDocument
        do {
            document = try MCPConfigDocument.load(from: file)
        } catch {
            configs = []
            problems = ["\(file.path): \(error)"]
            statusChanged()
            return
        }
        let read = document.servers(environment: environment)
        configs = read.servers
        problems = read.problems
        statusChanged()
        let running = await MCPKeyringHeaders.adding(to: configs.filter { !$0.disabled }, from: secrets)
        await hub.reload(running)
        statusChanged()
    }

    /// The server running for `name`, for its status and tools.
    public func server(named name: String) -> MCPServer? {
        hub.servers.first { $0.config.name == name }
    }

    /// Adds what the user pasted (a whole file, a `{name: entry}` object or one entry).
    /// Every stdio command in it is shown in full and must be allowed before anything is
    /// saved; returns the names added (none when the user declined), or throws why the text
    /// cannot be used.
    @discardableResult
    public func add(pasted text: String) async throws -> [String] {
        let entries = try MCPConfigDocument.entries(pasted: text)
        var document = try MCPConfigDocument.load(from: file)
        var added: [(name: String, entry: JSONValue)] = []
        for (name, entry) in entries {
            var probe = MCPConfigDocument()
            probe.add(name: name, entry: entry)
            guard let config = probe.servers(environment: environment).servers.first else { continue }
            if config.isStdio {
                guard await consent.ask(.serverLaunch(config)) != .deny else { continue }
                settings.approvedMCPLaunches.insert(config.launchFingerprint)
            }
            added.append((name, entry))
        }
        guard !added.isEmpty else { return [] }
        document = try MCPConfigDocument.load(from: file)  // edits made while the user was asked
        for (name, entry) in added { document.add(name: name, entry: entry) }
        forgetApprovals(of: added.map(\.name), in: document)
        try document.save(to: file)
        await load()
        return added.map(\.name)
    }

    /// Adds a server the user described in the form: they typed the command themselves, so
    /// it runs without asking again. Secret headers go to the keyring, the rest to the file.
    public func add(name: String, entry: JSONValue, secretHeaders: [MCPServerConfig.Variable]) async throws {
        var document = try MCPConfigDocument.load(from: file)
        forgetApprovals(of: [name], in: document)
        document.add(name: name, entry: entry)
        if let config = document.servers(environment: environment).servers.first(where: { $0.name == name }), config.isStdio {
            settings.approvedMCPLaunches.insert(config.launchFingerprint)
        }
        await MCPKeyringHeaders.store(secretHeaders, for: name, in: secrets)
        try document.save(to: file)
        await load()
    }

    /// A server replaced by another of the same name does not inherit its "Always Allow".
    private func forgetApprovals(of names: [String], in document: MCPConfigDocument) {
        let replaced = Set(names).intersection(document.serverNames)
        guard !replaced.isEmpty else { return }
        settings.alwaysAllowedMCPTools = settings.alwaysAllowedMCPTools.filter { !replaced.contains($0.server) }
    }

    public func remove(_ name: String) async throws {
        var document = try MCPConfigDocument.load(from: file)
        document.remove(name: name)
        try document.save(to: file)
        await MCPKeyringHeaders.remove(for: name, in: secrets)
        settings.alwaysAllowedMCPTools = settings.alwaysAllowedMCPTools.filter { $0.server != name }
        settings.disabledMCPTools = settings.disabledMCPTools.filter { $0.server != name }
        await load()
    }

    /// Switches a server on or off (`"disabled": true` in its entry, as other apps write it).
    public func setEnabled(_ enabled: Bool, server name: String) async throws {
        var document = try MCPConfigDocument.load(from: file)
        document.setDisabled(!enabled, name: name)
        try document.save(to: file)
        await load()
    }

    /// The tools switched off, every server's.
    public var disabledTools: Set<MCPToolKey> {
        settings.disabledMCPTools
    }

    public func setToolEnabled(_ enabled: Bool, _ key: MCPToolKey) {
        if enabled { settings.disabledMCPTools.remove(key) } else { settings.disabledMCPTools.insert(key) }
        statusChanged()
    }

    /// The tools the user chose "Always Allow" for.
    public var alwaysAllowed: [MCPToolKey] {
        settings.alwaysAllowedMCPTools.sorted { ($0.server, $0.tool) < ($1.server, $1.tool) }
    }

    public func forgetAlwaysAllowed(_ key: MCPToolKey) {
        settings.alwaysAllowedMCPTools.remove(key)
        statusChanged()
    }

    public func retry(_ name: String) async {
        await hub.restart(name)
    }
}
