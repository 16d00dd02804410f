import AgentCore
import CGtk

/// One Ollama server in Preferences › Models: "Pull a Model" (`OllamaPullRows`), and the
/// server's models, each with its size and family and a Delete button.
@MainActor
final class OllamaServerGroup {
    let profileID: String
    let widget: UnsafeMutablePointer<GtkWidget>
    let pull = OllamaPullRows()
    let refreshButton: UnsafeMutablePointer<GtkWidget>
    /// Says what the list is doing when it shows no models: listing, empty, or why it failed.
    let statusRow: UnsafeMutablePointer<GtkWidget>
    /// The models as listed, with their rows and Delete buttons.
    private(set) var models: [(info: OllamaModelInfo, row: UnsafeMutablePointer<GtkWidget>, delete: UnsafeMutablePointer<GtkWidget>)] = []
    private(set) var profile: ServerProfile
    private let secrets: SecretStore
    private var listing = 0
    private var closed = false

    var onNotice: ((String) -> Void)?
    var onProblem: ((String, String) -> Void)?
    /// Asks the user to confirm deleting a model (name, what the dialog says about it).
    var confirmDelete: ((OllamaModelInfo, String, @escaping @MainActor () -> Void) -> Void)?

    init(profile: ServerProfile, secrets: SecretStore) {
        profileID = profile.id
        self.profile = profile
        self.secrets = secrets
        widget = adw_preferences_group_new()
        refreshButton = gtk_button_new_from_icon_name("view-refresh-symbolic")
        GtkText.addClasses(refreshButton, "flat")
        agent_widget_set_tooltip_text(refreshButton, tr("List the Models Again"))
        agent_accessible_set_label(refreshButton, tr("List the models again"))
        adw_preferences_group_set_header_suffix(widget.cast(), refreshButton)

        statusRow = PreferenceRows.actionRow(title: tr("Listing the models…"))
        pull.manager = { [weak self] in await self?.manager() }
        pull.onNotice = { [weak self] in self?.onNotice?($0) }
        pull.onPulled = { [weak self] in self?.reload() }
        for row in [pull.entry, pull.progress.widget, statusRow] { PreferenceRows.add(row, to: widget) }
        describe(profile)
        Signals.connect(refreshButton.raw, "clicked") { [weak self] in self?.reload() }
        reload()
    }

    /// The profile changed (its name or address): the titles follow; a new address is listed again.
    func update(_ newProfile: ServerProfile) {
        let moved = newProfile.url != profile.url || newProfile.caFile != profile.caFile
        profile = newProfile
        describe(newProfile)
        if moved, !pull.isPulling { reload() }
    }

    /// The window closed: a pull in flight stops, and late answers are dropped.
    func windowClosed() {
        closed = true
        pull.windowClosed()
    }

    private func describe(_ profile: ServerProfile) {
        adw_preferences_group_set_title(widget.cast(), profile.name)
        adw_preferences_group_set_description(widget.cast(), profile.url)
    }

    private func manager() async -> OllamaModelManager {
        OllamaModelManager(endpoint: profile.endpoint(apiKey: await secrets.key(for: profile.id)))
    }

    /// Asks the server for its models and shows them.
    func reload() {
        listing += 1
        let current = listing
        if models.isEmpty { showStatus(tr("Listing the models…")) }
        Task { [weak self] in
            guard let self else { return }
            let result: Result<[OllamaModelInfo], any Error>
            do {
                result = .success(try await manager().models())
            } catch {
                result = .failure(error)
            }
            guard !closed, current == listing else { return }
            switch result {
            case .success(let models): show(models)
            case .failure(let error):
                show([])
                showStatus(tr("Could not list the models"), detail: ChatError.describe(error), isError: true)
            }
        }
    }

    private func show(_ list: [OllamaModelInfo]) {
        for model in models { adw_preferences_group_remove(widget.cast(), model.row) }
        models = list.map { info in
            let delete: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("user-trash-symbolic")
            GtkText.addClasses(delete, "flat")
            agent_widget_set_tooltip_text(delete, tr("Delete"))
            let row = PreferenceRows.actionRow(title: info.name, subtitle: info.summary, suffix: delete)
            agent_accessible_set_label(delete, tr("Delete %s", info.name))
            adw_action_row_set_activatable_widget(row.cast(), nil)
            Signals.connect(delete.raw, "clicked") { [weak self] in self?.askToDelete(info) }
            PreferenceRows.add(row, to: widget)
            return (info, row, delete)
        }
        if list.isEmpty {
            showStatus(tr("No models yet"), detail: tr("Pull one by name above; ollama.com/library lists them."))
        } else {
            gtk_widget_set_visible(statusRow, 0)
        }
    }

    private func showStatus(_ title: String, detail: String? = nil, isError: Bool = false) {
        adw_preferences_row_set_title(statusRow.cast(), title)
        adw_action_row_set_subtitle(statusRow.cast(), detail ?? "")
        if isError { gtk_widget_add_css_class(statusRow, "error") } else { gtk_widget_remove_css_class(statusRow, "error") }
        gtk_widget_set_visible(statusRow, 1)
    }

    private func askToDelete(_ model: OllamaModelInfo) {
        let body = tr("%1$s deletes it from its disk, freeing %2$s. To use it again, pull it again.",
                      profile.name, ByteCountText.describe(model.size))
        confirmDelete?(model, body) { [weak self] in self?.delete(model) }
    }

    private func delete(_ model: OllamaModelInfo) {
        let button = models.first { $0.info.name == model.name }?.delete
        if let button { gtk_widget_set_sensitive(button, 0) }
        UnfinishedWork.run(from: widget) { [weak self] in
            guard let self else { return }
            let failure: (any Error)?
            do {
                try await manager().delete(model.name)
                failure = nil
            } catch {
                failure = error
            }
            guard !closed else { return }
            if let failure {
                if let button { gtk_widget_set_sensitive(button, 1) }
                onProblem?(tr("Could Not Delete %s", model.name), ChatError.describe(failure))
            } else {
                onNotice?(tr("Deleted %s", model.name))
            }
            reload()
        }
    }
}
