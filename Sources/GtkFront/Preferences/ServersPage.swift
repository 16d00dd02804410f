import AgentCore
import CGtk

/// Preferences › Servers: where chats go — a server named with `--server`, this computer or
/// one of the servers — and the servers themselves, one expander row each, added and removed
/// here.
@MainActor
final class ServersPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// "Chats go to": the server named for this run, this computer, then the servers by name.
    let destination: UnsafeMutablePointer<GtkWidget>
    /// The "Chats Go To" group; its description speaks of the server of this run when it is chosen.
    let destinationGroup: UnsafeMutablePointer<GtkWidget>
    let addButton: UnsafeMutablePointer<GtkWidget>
    private(set) var rows: [ServerProfileRow] = []
    /// The model servers running on this computer, offered as profiles.
    let found: FoundServersGroup
    private let serversGroup: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    private let secrets: SecretStore
    /// The destination's entries, in order: this run's server (nil) if there is one, then
    /// `localProfileID`, then the profiles' ids.
    private var destinationIDs: [String?] = []
    /// How the server named for this run (`--server`) is called, if there is one.
    private let serverOfThisRun: String?
    /// Whether chats went to it when the page opened.
    private let chatsGoToServerOfThisRun: Bool
    /// The settings' destination when the page opened: theirs again when this run's server is
    /// chosen.
    private var activeAtOpen: String
    /// What the user chose in "Chats go to" (adding a server chooses the settings' destination);
    /// nil while nothing was.
    private(set) var destinationChoice: DestinationChoice?
    private var reloading = false

    var onNotice: ((String) -> Void)?
    var onProblem: ((String) -> Void)?
    /// Asks the user to confirm removing a server (a dialog over Preferences).
    var confirmRemoval: ((String, @escaping @MainActor () -> Void) -> Void)?
    var chooseCertificate: ((@escaping @MainActor (String) -> Void) -> Void)?

    /// `serverOfThisRun`: how the server named with `--server` is called, if there is one;
    /// `chatsGoToIt`: whether chats go to it now.
    init(settings: SettingsStore, secrets: SecretStore, serverOfThisRun: String? = nil, chatsGoToIt: Bool = false) {
        self.settings = settings
        self.secrets = secrets
        self.serverOfThisRun = serverOfThisRun
        chatsGoToServerOfThisRun = serverOfThisRun != nil && chatsGoToIt
        activeAtOpen = settings.activeProfileID
        widget = PreferenceRows.page(title: tr("Servers"), icon: "network-server-symbolic", name: "servers")
        destinationGroup = PreferenceRows.group(in: widget, title: tr("Chats Go To"))
        destination = adw_combo_row_new()
        adw_preferences_row_set_title(destination.cast(), tr("Server"))
        PreferenceRows.add(destination, to: destinationGroup)
        serversGroup = PreferenceRows.group(in: widget, title: tr("Servers"),
                                            description: tr("OpenAI-compatible servers (llama.cpp, vLLM, LM Studio, OpenAI), Ollama, or the llmtools harness. API keys are kept in your keyring, never in a file."))
        addButton = PreferenceRows.addButton(in: serversGroup, tooltip: tr("Add a Server"))
        found = FoundServersGroup(in: widget) { server in server.isAdded(in: settings.serverProfiles) }
        for profile in settings.serverProfiles { addRow(for: profile.id) }
        reloadDestination()
        found.onAdd = { [weak self] in self?.add($0) }
        found.searchAgain()
        Signals.connect(destination.raw, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in self?.destinationChosen() }
        Signals.connect(addButton.raw, "clicked") { [weak self] in self?.addProfile() }
    }

    /// The window closed: rows drop answers still on their way.
    func windowClosed() {
        for row in rows { row.windowClosed() }
        found.windowClosed()
    }

    func row(for id: String) -> ServerProfileRow? { rows.first { $0.id == id } }

    /// Lists this run's server, this computer and the servers by name, with the one chats go
    /// to selected.
    private func reloadDestination() {
        reloading = true
        defer { reloading = false }
        let profiles = settings.serverProfiles
        // TRANSLATORS: where chats go: %s is the host of the server named with --server when Agent started.
        let ofThisRun = serverOfThisRun.map { [(id: String?.none, name: tr("%s (--server)", $0))] } ?? []
        let entries = ofThisRun + [(localProfileID, tr("This computer (%s)", settings.localModel.displayName))]
            + profiles.map { ($0.id, $0.name) }
        destinationIDs = entries.map(\.id)
        let list = StringLists.make(entries.map(\.name))
        adw_combo_row_set_model(destination.cast(), list)
        g_object_unref(UnsafeMutableRawPointer(list))
        let chosen: String? = isServerOfThisRunChosen ? nil : settings.activeProfileID
        adw_combo_row_set_selected(destination.cast(), guint(destinationIDs.firstIndex(of: chosen) ?? 0))
        describeDestination()
    }

    private func destinationChosen() {
        guard !reloading else { return }
        let index = Int(adw_combo_row_get_selected(destination.cast()))
        guard destinationIDs.indices.contains(index) else { return }
        let id = destinationIDs[index]
        destinationChoice = id == nil ? .serverOfThisRun : .settings
        settings.activeProfileID = id ?? activeAtOpen
        describeDestination()
    }

    private var isServerOfThisRunChosen: Bool {
        destinationChoice == .serverOfThisRun || (destinationChoice == nil && chatsGoToServerOfThisRun)
    }

    /// Says, while this run's server is chosen, why the settings' options do not apply to it.
    private func describeDestination() {
        adw_preferences_group_set_description(destinationGroup.cast(), isServerOfThisRunChosen
            ? tr("Given with --server when Agent started: chats go there with its command-line options. Choose another server to use your settings.") : nil)
    }

    private func addRow(for id: String) {
        guard let profile = settings.profileSettings(id) else { return }
        let row = ServerProfileRow(id: id, profile: profile, settings: settings, secrets: secrets)
        row.onNotice = { [weak self] in self?.onNotice?($0) }
        row.onProblem = { [weak self] in self?.onProblem?($0) }
        row.onChooseCertificate = { [weak self] chosen in self?.chooseCertificate?(chosen) }
        row.onRemove = { [weak self] row in self?.remove(row) }
        // The destination names the servers: it follows their names.
        Signals.connect(profile.raw, "changed::name") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.reloadDestination()
        }
        PreferenceRows.add(row.widget, to: serversGroup)
        rows.append(row)
    }

    /// A new server, chosen for chats, opened for its address to be typed.
    func addProfile() {
        let profile = ServerProfile(name: tr("New Server"), url: "http://localhost:8080", model: LaunchOptions.defaultRemoteModel)
        settings.saveProfile(profile)
        settings.activeProfileID = profile.id
        destinationChoice = .settings
        addRow(for: profile.id)
        reloadDestination()
        guard let row = rows.last else { return }
        adw_expander_row_set_expanded(row.widget.cast(), 1)
        gtk_widget_grab_focus(row.urlRow)
    }

    /// A server found on this computer, added as a profile and chosen for chats.
    private func add(_ server: FoundServer) {
        let profile = settings.use(server)
        destinationChoice = .settings
        addRow(for: profile.id)
        reloadDestination()
        found.refresh()
        onNotice?(tr("Chats now go to %s", server.title))
    }

    private func remove(_ row: ServerProfileRow) {
        let name = row.profile?.name ?? tr("this server")
        confirmRemoval?(name) { [weak self] in
            guard let self else { return }
            settings.removeProfile(row.id)
            if activeAtOpen == row.id { activeAtOpen = settings.activeProfileID }
            let id = row.id
            UnfinishedWork.run(from: widget) { [secrets] in await secrets.clear(id) }
            row.windowClosed()
            adw_preferences_group_remove(serversGroup.cast(), row.widget)
            rows.removeAll { $0 === row }
            reloadDestination()
            found.refresh()
        }
    }
}
