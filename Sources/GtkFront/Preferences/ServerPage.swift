import AgentCore
import CGtk
import FoundationEssentials

/// Preferences › Servers: where chats go (this computer, or a server profile), and the
/// profiles themselves — URL, protocol, API path, model (typed, or picked from the
/// server's list), API key (kept in the keyring), CA certificate, tools.
@MainActor
final class ServerPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    private let secrets: SecretStore
    private let window: UnsafeMutablePointer<GtkWidget>
    /// The active choice or a profile's fields changed.
    var onChange: (() -> Void)?

    let destination: UnsafeMutablePointer<GtkWidget>
    let nameEntry: UnsafeMutablePointer<GtkWidget>
    let urlEntry: UnsafeMutablePointer<GtkWidget>
    let protocolDropDown: UnsafeMutablePointer<GtkWidget>
    let pathEntry: UnsafeMutablePointer<GtkWidget>
    let modelEntry: UnsafeMutablePointer<GtkWidget>
    let fetchButton: UnsafeMutablePointer<GtkWidget>
    let modelList: UnsafeMutablePointer<GtkWidget>
    let keyEntry: UnsafeMutablePointer<GtkWidget>
    let keyStatus: UnsafeMutablePointer<GtkWidget>
    let caEntry: UnsafeMutablePointer<GtkWidget>
    let toolsSwitch: UnsafeMutablePointer<GtkWidget>
    let addButton: UnsafeMutablePointer<GtkWidget>
    let removeButton: UnsafeMutablePointer<GtkWidget>
    private let editor: UnsafeMutablePointer<GtkWidget>
    private var profiles: [ServerProfile] = []
    private var fetchedModels: [String] = []
    private var loading = false
    /// Set once the window is being torn down: nothing may touch its widgets any more.
    private var windowClosed = false
    /// Bumped by each change of the key's status line, so an older answer cannot overwrite a newer one.
    private var keyStatusVersion = 0

    init(settings: SettingsStore, secrets: SecretStore, window: UnsafeMutablePointer<GtkWidget>) {
        self.settings = settings
        self.secrets = secrets
        self.window = window
        destination = FormGrid.dropDown([], selected: 0)
        nameEntry = FormGrid.entry(nil)
        urlEntry = FormGrid.entry(nil, placeholder: "http://localhost:8080")
        protocolDropDown = FormGrid.dropDown(["OpenAI-compatible", "Ollama", "llmtools harness"], selected: 0)
        pathEntry = FormGrid.entry(nil)
        modelEntry = FormGrid.entry(nil)
        fetchButton = gtk_button_new_with_mnemonic("_List Models")
        modelList = FormGrid.dropDown([], selected: 0)
        gtk_widget_set_visible(modelList, 0)
        keyEntry = gtk_password_entry_new()
        gtk_password_entry_set_show_peek_icon(keyEntry.opaque, 1)
        keyStatus = FormGrid.note("")
        caEntry = FormGrid.entry(nil, placeholder: "none: the system's certificates")
        toolsSwitch = gtk_switch_new()
        gtk_widget_set_halign(toolsSwitch, GTK_ALIGN_START)

        let top = FormGrid()
        top.add("Chats go to", destination)
        let buttons: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        addButton = gtk_button_new_with_mnemonic("_Add Server")
        removeButton = gtk_button_new_with_mnemonic("_Remove Server")
        gtk_box_append(buttons.cast(), addButton)
        gtk_box_append(buttons.cast(), removeButton)
        top.addWide(buttons)

        let form = FormGrid()
        form.add("Name", nameEntry)
        form.add("URL", urlEntry)
        form.add("Protocol", protocolDropDown)
        form.add("API path", pathEntry)
        let modelRow: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_set_hexpand(modelEntry, 1)
        gtk_box_append(modelRow.cast(), modelEntry)
        gtk_box_append(modelRow.cast(), fetchButton)
        let modelBox: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_box_append(modelBox.cast(), modelRow)
        gtk_box_append(modelBox.cast(), modelList)
        form.add("Model", modelBox, name: "Model row")
        agent_accessible_set_label(modelEntry, "Model")
        agent_accessible_set_label(modelList, "Server's models")
        form.add("API key", keyEntry)
        form.addWide(keyStatus)
        let caRow: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_set_hexpand(caEntry, 1)
        let choose: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_mnemonic("_Choose…")
        gtk_box_append(caRow.cast(), caEntry)
        gtk_box_append(caRow.cast(), choose)
        form.add("CA certificate", caRow, name: "CA certificate row")
        agent_accessible_set_label(caEntry, "CA certificate")
        form.add("Tools", toolsSwitch)
        form.addWide(FormGrid.note("The API key is kept in your keyring (the Secret Service), never in a file. "
            + "A CA certificate lets Agent trust your own server's self-signed certificate; verification stays on."))
        editor = form.widget

        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(widget.cast(), top.widget)
        gtk_box_append(widget.cast(), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(widget.cast(), editor)

        Signals.connect(addButton.raw, "clicked") { [weak self] in self?.addProfile() }
        Signals.connect(removeButton.raw, "clicked") { [weak self] in self?.removeProfile() }
        Signals.connect(destination.raw, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in self?.destinationChanged() }
        for entry in [nameEntry, urlEntry, pathEntry, modelEntry, caEntry] {
            Signals.connect(entry.raw, "changed") { [weak self] in self?.fieldsChanged() }
        }
        Signals.connect(protocolDropDown.raw, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in self?.fieldsChanged() }
        Signals.connect(toolsSwitch.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in self?.fieldsChanged() }
        Signals.connect(modelList.raw, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in self?.modelPicked() }
        Signals.connect(fetchButton.raw, "clicked") { [weak self] in self?.fetchModels() }
        Signals.connect(keyEntry.raw, "activate") { [weak self] in self?.saveKey() }
        Signals.connect(choose.raw, "clicked") { [weak self] in self?.chooseCertificate() }
        reload()
    }

    /// The profile being edited (the active one, unless chats go to this computer).
    var editedProfile: ServerProfile? {
        let index = Int(gtk_drop_down_get_selected(destination.opaque)) - 1
        return profiles.indices.contains(index) ? profiles[index] : nil
    }

    private func reload() {
        loading = true
        defer { loading = false }
        profiles = settings.serverProfiles
        let names = ["This computer (\(settings.localModel.displayName))"] + profiles.map(\.name)
        let model = gtk_string_list_new(nil)
        for name in names { gtk_string_list_append(model, name) }
        gtk_drop_down_set_model(destination.opaque, model)
        g_object_unref(UnsafeMutableRawPointer(model))
        let active = profiles.firstIndex { $0.id == settings.activeProfileID }.map { $0 + 1 } ?? 0
        gtk_drop_down_set_selected(destination.opaque, guint(active))
        showEditedProfile()
    }

    private func showEditedProfile() {
        loading = true
        defer { loading = false }
        gtk_widget_set_visible(editor, editedProfile == nil ? 0 : 1)
        gtk_widget_set_sensitive(removeButton, editedProfile == nil ? 0 : 1)
        guard let profile = editedProfile else { return }
        gtk_editable_set_text(nameEntry.opaque, profile.name)
        gtk_editable_set_text(urlEntry.opaque, profile.url)
        gtk_drop_down_set_selected(protocolDropDown.opaque, guint(ChatProtocol.allCases.firstIndex(of: profile.protocolKind) ?? 0))
        gtk_editable_set_text(pathEntry.opaque, profile.apiPath ?? "")
        gtk_entry_set_placeholder_text(pathEntry.cast(), profile.protocolKind.defaultAPIPath)
        gtk_editable_set_text(modelEntry.opaque, profile.model)
        gtk_editable_set_text(caEntry.opaque, profile.caFile ?? "")
        gtk_switch_set_active(toolsSwitch.opaque, profile.toolsEnabled ? 1 : 0)
        gtk_editable_set_text(keyEntry.opaque, "")
        gtk_widget_set_visible(modelList, 0)
        let id = profile.id
        gtk_label_set_text(keyStatus.opaque, "")
        keyStatusVersion += 1
        let version = keyStatusVersion
        Task { [weak self, secrets] in
            let stored = await secrets.key(for: id) != nil
            // The window may have closed while the keyring answered.
            guard let self, !windowClosed, editedProfile?.id == id, version == keyStatusVersion else { return }
            setKeyStatus(stored ? "A key is stored for this server. Type a new one and press Enter to replace it."
                         : "No key stored. Type one and press Enter to keep it in your keyring.")
        }
    }

    private func setKeyStatus(_ text: String) {
        gtk_label_set_text(keyStatus.opaque, secrets.keyringProblem.map { "No keyring available (\($0)): the key is kept for this session only." } ?? text)
    }

    /// The window is going away: its widgets are torn down one by one and may signal on the
    /// way (a drop-down losing its model); none of that is the user editing.
    func windowClosing() {
        loading = true
        windowClosed = true
    }

    private func destinationChanged() {
        guard !loading else { return }
        settings.activeProfileID = editedProfile?.id ?? localProfileID
        showEditedProfile()
        onChange?()
    }

    private func fieldsChanged() {
        guard !loading, var profile = editedProfile else { return }
        profile.name = FormGrid.text(of: nameEntry).trimmed.isEmpty ? FormGrid.text(of: urlEntry) : FormGrid.text(of: nameEntry).trimmed
        profile.url = FormGrid.text(of: urlEntry).trimmed
        profile.protocolKind = ChatProtocol.allCases[min(Int(gtk_drop_down_get_selected(protocolDropDown.opaque)), ChatProtocol.allCases.count - 1)]
        gtk_entry_set_placeholder_text(pathEntry.cast(), profile.protocolKind.defaultAPIPath)
        let path = FormGrid.text(of: pathEntry).trimmed
        profile.apiPath = path.isEmpty ? nil : path
        profile.model = FormGrid.text(of: modelEntry).trimmed
        let ca = FormGrid.text(of: caEntry).trimmed
        profile.caFile = ca.isEmpty ? nil : ca
        profile.toolsEnabled = gtk_switch_get_active(toolsSwitch.opaque) != 0
        settings.saveProfile(profile)
        if let index = profiles.firstIndex(where: { $0.id == profile.id }) {
            let renamed = profiles[index].name != profile.name
            profiles[index] = profile
            if renamed, let model = gtk_drop_down_get_model(destination.opaque) {
                let names: [UnsafeMutablePointer<CChar>?] = [strdup(profile.name), nil]
                defer { names.forEach { free($0) } }
                loading = true
                names.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { list in
                        gtk_string_list_splice(model, guint(index + 1), 1, list.baseAddress)
                    }
                }
                gtk_drop_down_set_selected(destination.opaque, guint(index + 1))
                loading = false
            }
        }
        onChange?()
    }

    private func addProfile() {
        let profile = ServerProfile(name: "New Server", url: "http://localhost:8080", model: LaunchOptions.defaultRemoteModel)
        settings.saveProfile(profile)
        settings.activeProfileID = profile.id
        reload()
        gtk_widget_grab_focus(urlEntry)
        onChange?()
    }

    private func removeProfile() {
        guard let profile = editedProfile else { return }
        settings.removeProfile(profile.id)
        Task { await secrets.clear(profile.id) }
        reload()
        onChange?()
    }

    /// Enter in the key field: the key goes to the keyring (or this session).
    func saveKey() {
        guard let profile = editedProfile else { return }
        let key = FormGrid.text(of: keyEntry)
        guard !key.isEmpty else { return }
        gtk_editable_set_text(keyEntry.opaque, "")
        keyStatusVersion += 1
        let version = keyStatusVersion
        Task { [weak self, secrets] in
            let kept = await secrets.store(APIKey(key), for: profile.id, label: "Agent: API key for \(profile.name)")
            guard let self, !windowClosed else { return }
            if version == keyStatusVersion { setKeyStatus(kept ? "Key saved in your keyring." : "") }
            onChange?()
        }
    }

    private func fetchModels() {
        guard let profile = editedProfile else { return }
        gtk_widget_set_sensitive(fetchButton, 0)
        Task { [weak self, secrets] in
            let result: Result<[String], any Error>
            do {
                result = .success(try await ModelCatalog.models(for: profile.endpoint(apiKey: await secrets.key(for: profile.id))))
            } catch {
                result = .failure(error)
            }
            // The window may have closed while the server answered.
            guard let self, !windowClosed else { return }
            gtk_widget_set_sensitive(fetchButton, 1)
            switch result {
            case .success(let models):
                showModels(models)
            case .failure(let error):
                ErrorAlert.show(over: window, message: "Could not list the server's models.\n\n\(ChatError.describe(error))") {}
            }
        }
    }

    /// Offers `models` to pick from (also used by tests).
    func showModels(_ models: [String]) {
        fetchedModels = models
        loading = true
        let list = gtk_string_list_new(nil)
        for name in models { gtk_string_list_append(list, name) }
        gtk_drop_down_set_model(modelList.opaque, list)
        g_object_unref(UnsafeMutableRawPointer(list))
        let current = FormGrid.text(of: modelEntry)
        gtk_drop_down_set_selected(modelList.opaque, guint(models.firstIndex(of: current) ?? Int(GTK_INVALID_LIST_POSITION)))
        loading = false
        gtk_widget_set_visible(modelList, models.isEmpty ? 0 : 1)
    }

    private func modelPicked() {
        guard !loading else { return }
        let index = Int(gtk_drop_down_get_selected(modelList.opaque))
        guard fetchedModels.indices.contains(index) else { return }
        gtk_editable_set_text(modelEntry.opaque, fetchedModels[index])
    }

    private func chooseCertificate() {
        FileChooser.choose(over: window, title: "Choose the Server's CA Certificate", saving: nil) { [weak self] url in
            guard let self, let url else { return }
            gtk_editable_set_text(caEntry.opaque, url.path)
        }
    }
}
