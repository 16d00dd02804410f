import AgentCore
import CGtk

/// Ollama's groups in Preferences › Models, after the local model's: the models of each
/// server set up with the Ollama protocol — pull one by name, delete one — or, with no such
/// server, how to add one.
@MainActor
final class OllamaModelGroups {
    /// The page the groups are on.
    private let page: UnsafeMutablePointer<GtkWidget>
    /// Shown when no server speaks Ollama.
    let emptyGroup: UnsafeMutablePointer<GtkWidget>
    let showServersButton: UnsafeMutablePointer<GtkWidget>
    private(set) var groups: [OllamaServerGroup] = []
    private let settings: SettingsStore
    private let secrets: SecretStore

    var onNotice: ((String) -> Void)?
    var onProblem: ((String, String) -> Void)?
    var confirmDelete: ((OllamaModelInfo, String, @escaping @MainActor () -> Void) -> Void)?
    var onShowServers: (() -> Void)?

    /// Adds its groups to `page`.
    init(in page: UnsafeMutablePointer<GtkWidget>, settings: SettingsStore, secrets: SecretStore) {
        self.page = page
        self.settings = settings
        self.secrets = secrets
        emptyGroup = PreferenceRows.group(in: page, title: tr("Ollama Models"),
                                          description: tr("Ollama keeps models on the computer it runs on; here you can pull (download) and delete them."))
        showServersButton = MnemonicButton.make(tr("_Servers"))
        PreferenceRows.add(PreferenceRows.actionRow(
            title: tr("No Ollama server is set up"),
            subtitle: tr("In Servers, add one with +, choose the Ollama protocol and give its address (http://localhost:11434 when it runs on this computer)."),
            suffix: showServersButton), to: emptyGroup)
        Signals.connect(showServersButton.raw, "clicked") { [weak self] in self?.onShowServers?() }
        refresh()
    }

    /// Follows the servers as Preferences has them now: a group per Ollama server, kept
    /// (with any pull in flight) while its server stays.
    func refresh() {
        let servers = settings.serverProfiles.filter { $0.protocolKind == .ollama }
        for group in groups where !servers.contains(where: { $0.id == group.profileID }) {
            group.windowClosed()
            adw_preferences_page_remove(page.cast(), group.widget.cast())
        }
        groups.removeAll { group in !servers.contains { $0.id == group.profileID } }
        for server in servers {
            if let group = groups.first(where: { $0.profileID == server.id }) {
                group.update(server)
                continue
            }
            let group = OllamaServerGroup(profile: server, secrets: secrets)
            group.onNotice = { [weak self] in self?.onNotice?($0) }
            group.onProblem = { [weak self] in self?.onProblem?($0, $1) }
            group.confirmDelete = { [weak self] in self?.confirmDelete?($0, $1, $2) }
            adw_preferences_page_add(page.cast(), group.widget.cast())
            groups.append(group)
        }
        gtk_widget_set_visible(emptyGroup, servers.isEmpty ? 1 : 0)
    }

    /// The window closed: pulls in flight stop.
    func windowClosed() {
        for group in groups { group.windowClosed() }
    }
}
