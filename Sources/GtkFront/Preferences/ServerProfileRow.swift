import AgentCore
import CGtk

/// One server profile in Preferences › Servers: an expander row titled with its name and
/// address, holding its fields — each bound to the profile's GSettings key — the API key
/// (into the keyring when applied), the server's own model list, and Remove.
@MainActor
final class ServerProfileRow {
    let id: String
    let widget: UnsafeMutablePointer<GtkWidget>
    let nameRow: UnsafeMutablePointer<GtkWidget>
    let urlRow: UnsafeMutablePointer<GtkWidget>
    let protocolRow: UnsafeMutablePointer<GtkWidget>
    let pathRow: UnsafeMutablePointer<GtkWidget>
    let modelRow: UnsafeMutablePointer<GtkWidget>
    let listModelsButton: UnsafeMutablePointer<GtkWidget>
    /// The models the server listed, to pick from (shown once listed).
    let modelsRow: UnsafeMutablePointer<GtkWidget>
    let keyRow: UnsafeMutablePointer<GtkWidget>
    let caRow: UnsafeMutablePointer<GtkWidget>
    let toolsSwitch: UnsafeMutablePointer<GtkWidget>
    let removeButton: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    /// This profile's own settings.
    private let profileSettings: GSettingsObject
    private let secrets: SecretStore
    private var listedModels: [String] = []
    private var keyCheck = 0
    /// The window is gone: late answers (the keyring, the server) are dropped.
    private var closed = false

    /// Something to tell the user ("Key saved in your keyring"), or a problem to show.
    var onNotice: ((String) -> Void)?
    var onProblem: ((String) -> Void)?
    var onRemove: ((ServerProfileRow) -> Void)?
    var onChooseCertificate: ((@escaping @MainActor (String) -> Void) -> Void)?

    init(id: String, profile: GSettingsObject, settings: SettingsStore, secrets: SecretStore) {
        self.id = id
        self.settings = settings
        profileSettings = profile
        self.secrets = secrets
        widget = adw_expander_row_new()
        adw_preferences_row_set_use_markup(widget.cast(), 0)
        PreferenceRows.bind(profile, "name", widget.raw, "title", readOnly: true)
        PreferenceRows.bind(profile, "url", widget.raw, "subtitle", readOnly: true)

        nameRow = PreferenceRows.entryRow(title: tr("Name"), settings: profile, key: "name")
        urlRow = PreferenceRows.entryRow(title: tr("Address (such as http://localhost:8080)"), settings: profile, key: "url")
        adw_entry_row_set_input_purpose(urlRow.cast(), GTK_INPUT_PURPOSE_URL)
        protocolRow = adw_combo_row_new()
        adw_preferences_row_set_title(protocolRow.cast(), tr("Protocol"))
        let protocols = StringLists.make(ChatProtocol.allCases.map(\.displayName))
        adw_combo_row_set_model(protocolRow.cast(), protocols)
        g_object_unref(UnsafeMutableRawPointer(protocols))
        pathRow = PreferenceRows.entryRow(title: tr("API Path"), settings: profile, key: "api-path")
        modelRow = PreferenceRows.entryRow(title: tr("Model"), settings: profile, key: "model")
        listModelsButton = MnemonicButton.make(tr("_List Models"))
        GtkText.addClasses(listModelsButton, "flat")
        gtk_widget_set_valign(listModelsButton, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(listModelsButton, tr("Ask the server which models it has"))
        adw_entry_row_add_suffix(modelRow.cast(), listModelsButton)
        modelsRow = adw_combo_row_new()
        adw_preferences_row_set_title(modelsRow.cast(), tr("The Server’s Models"))
        gtk_widget_set_visible(modelsRow, 0)
        keyRow = adw_password_entry_row_new()
        adw_entry_row_set_show_apply_button(keyRow.cast(), 1)
        adw_preferences_row_set_title(keyRow.cast(), tr("API Key"))
        caRow = PreferenceRows.entryRow(title: tr("CA Certificate (for a self-signed server)"), settings: profile, key: "ca-file")
        let choose: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("document-open-symbolic")
        GtkText.addClasses(choose, "flat")
        gtk_widget_set_valign(choose, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(choose, tr("Choose the certificate file"))
        agent_accessible_set_label(choose, tr("Choose the certificate file"))
        adw_entry_row_add_suffix(caRow.cast(), choose)
        let tools = PreferenceRows.switchRow(title: tr("Offer Tools"), subtitle: tr("Let this server’s models call Agent’s tools."),
                                             settings: profile, key: "tools")
        toolsSwitch = tools.toggle
        removeButton = MnemonicButton.make(tr("_Remove"))
        GtkText.addClasses(removeButton, "destructive-action")
        let removeRow = PreferenceRows.actionRow(title: tr("Remove This Server"), suffix: removeButton)
        for row in [nameRow, urlRow, protocolRow, pathRow, modelRow, modelsRow, keyRow, caRow, tools.row, removeRow] {
            adw_expander_row_add_row(widget.cast(), row)
        }

        let current = ChatProtocol(rawValue: profile.string("protocol")) ?? .openai
        adw_combo_row_set_selected(protocolRow.cast(), guint(ChatProtocol.allCases.firstIndex(of: current) ?? 0))
        showDefaultPath()
        Signals.connect(protocolRow.raw, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in self?.protocolChosen() }
        Signals.connect(listModelsButton.raw, "clicked") { [weak self] in self?.listModels() }
        Signals.connect(modelsRow.raw, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in self?.modelPicked() }
        Signals.connect(keyRow.raw, "apply") { [weak self] in self?.saveKey() }
        Signals.connect(choose.raw, "clicked") { [weak self] in
            self?.onChooseCertificate? { [weak self] path in
                guard let self else { return }
                gtk_editable_set_text(caRow.opaque, path)
            }
        }
        Signals.connect(removeButton.raw, "clicked") { [weak self] in
            guard let self else { return }
            onRemove?(self)
        }
        checkKey()
    }

    /// The window closed: answers still on their way are dropped.
    func windowClosed() {
        closed = true
    }

    var profile: ServerProfile? { settings.serverProfile(id) }

    private var selectedProtocol: ChatProtocol {
        let index = Int(adw_combo_row_get_selected(protocolRow.cast()))
        return ChatProtocol.allCases.indices.contains(index) ? ChatProtocol.allCases[index] : .openai
    }

    private func protocolChosen() {
        profileSettings.set("protocol", selectedProtocol.rawValue)
        showDefaultPath()
    }

    /// The path row's title names the protocol's usual path, which an empty row means.
    private func showDefaultPath() {
        adw_preferences_row_set_title(pathRow.cast(), tr("API Path (empty: %s)", selectedProtocol.defaultAPIPath))
    }

    /// Says in the key row's title whether the keyring holds a key for this server.
    private func checkKey() {
        keyCheck += 1
        let check = keyCheck
        let id = id
        Task { [weak self, secrets] in
            let stored = await secrets.key(for: id) != nil
            guard let self, !closed, check == keyCheck else { return }
            showKeyState(stored: stored)
        }
    }

    private func showKeyState(stored: Bool) {
        let title = if let problem = secrets.keyringProblem {
            tr("API Key (no keyring: %s; kept for this session only)", problem)
        } else {
            stored ? tr("API Key (one is stored in your keyring)") : tr("API Key")
        }
        adw_preferences_row_set_title(keyRow.cast(), title)
    }

    /// The key row's apply button (or Enter): the key goes to the keyring (or this session),
    /// never into a file; the row is emptied.
    func saveKey() {
        let key = PreferenceRows.text(of: keyRow)
        guard !key.isEmpty else { return }
        gtk_editable_set_text(keyRow.opaque, "")
        keyCheck += 1
        let check = keyCheck
        let (id, name) = (id, profile?.name ?? tr("server"))
        UnfinishedWork.run(from: widget) { [weak self, secrets] in
            let kept = await secrets.store(APIKey(key), for: id, label: tr("Agent: API key for %s", name))
            guard let self, !closed else { return }
            if check == keyCheck { showKeyState(stored: kept) }
            onNotice?(kept ? tr("Key saved in your keyring") : tr("No keyring: the key is kept for this session only"))
        }
    }

    private func listModels() {
        guard let profile else { return }
        gtk_widget_set_sensitive(listModelsButton, 0)
        Task { [weak self, secrets] in
            let result: Result<[String], any Error>
            do {
                result = .success(try await ModelCatalog.models(for: profile.endpoint(apiKey: await secrets.key(for: profile.id))))
            } catch {
                result = .failure(error)
            }
            guard let self, !closed else { return }
            gtk_widget_set_sensitive(listModelsButton, 1)
            switch result {
            case .success(let models): show(models)
            case .failure(let error): onProblem?(tr("Could not list the server’s models.\n\n%s", ChatError.describe(error)))
            }
        }
    }

    /// Offers `models` to pick from.
    private func show(_ models: [String]) {
        listedModels = models
        let list = StringLists.make(models)
        adw_combo_row_set_model(modelsRow.cast(), list)
        g_object_unref(UnsafeMutableRawPointer(list))
        let current = PreferenceRows.text(of: modelRow)
        adw_combo_row_set_selected(modelsRow.cast(), guint(models.firstIndex(of: current) ?? Int(GTK_INVALID_LIST_POSITION)))
        gtk_widget_set_visible(modelsRow, models.isEmpty ? 0 : 1)
        onNotice?(models.isEmpty ? tr("The server lists no models") : trn("The server has %d model", "The server has %d models", models.count))
    }

    private func modelPicked() {
        let index = Int(adw_combo_row_get_selected(modelsRow.cast()))
        guard listedModels.indices.contains(index), listedModels[index] != PreferenceRows.text(of: modelRow) else { return }
        gtk_editable_set_text(modelRow.opaque, listedModels[index])
    }
}
