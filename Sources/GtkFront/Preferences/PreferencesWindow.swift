import AgentCore
import CGtk

/// The Preferences window (Ctrl+,): libadwaita's `AdwPreferencesWindow` with a page each
/// for servers, models (the local model's and Ollama's), generation, presets and tools —
/// five at most, so the page bar's names fit a phone's width. It edits a delayed copy of
/// the settings: typing writes nothing; all of it is written once, when the window closes —
/// then the chat follows. Presets, kept with the chats, are written as they are saved.
@MainActor
final class PreferencesWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    /// What the pages edit until the window closes.
    let settings: SettingsStore
    let servers: ServersPage
    /// Preferences › Models: `localModel`'s groups, then `ollama`'s.
    let modelsPage: UnsafeMutablePointer<GtkWidget>
    let ollama: OllamaModelGroups
    let generation: GenerationPage
    /// nil when chats are not kept (nowhere to keep presets).
    let presets: PresetsPage?
    let tools: ToolsPage
    let localModel: LocalModelGroups
    private var applied = false

    /// `closed` runs once the window has closed and its changes are written.
    /// `mcp`: the MCP servers Preferences › Tools lists and edits (nil: none for this run).
    /// `library`: where presets are kept, with the models their form offers.
    /// `serverOfThisRun`: how the server named with `--server` is called, and whether chats go to it.
    init(parent: UnsafeMutablePointer<GtkWidget>, settings stored: SettingsStore, secrets: SecretStore,
         serverOfThisRun: (name: String, chatsGoToIt: Bool)? = nil,
         mcp: MCPServersModel? = nil, library: ChatLibrary? = nil, models: [ChatSettingsForm.ModelOption] = [],
         generationDefaults: GenerationOptions = GenerationOptions(), closed: @escaping @MainActor () -> Void) throws {
        settings = try stored.delayedCopy()
        window = adw_preferences_window_new()
        SecondaryWindow.place(window, over: parent)
        gtk_window_set_default_size(window.cast(), 640, 720)
        adw_preferences_window_set_search_enabled(window.cast(), 0)

        servers = ServersPage(settings: settings, secrets: secrets, serverOfThisRun: serverOfThisRun?.name,
                              chatsGoToIt: serverOfThisRun?.chatsGoToIt ?? false)
        generation = GenerationPage(settings: settings)
        tools = ToolsPage(settings: settings, mcp: mcp, window: window)
        modelsPage = PreferenceRows.page(title: tr("Models"), icon: "computer-symbolic", name: "models")
        localModel = LocalModelGroups(in: modelsPage, settings: settings, window: window)
        ollama = OllamaModelGroups(in: modelsPage, settings: settings, secrets: secrets)
        let shown = window
        presets = library.map { PresetsPage(library: $0, models: models, fallback: generationDefaults, window: shown) }
        let pages = [servers.widget, modelsPage, generation.widget] + (presets.map { [$0.widget] } ?? []) + [tools.widget]
        for page in pages {
            adw_preferences_window_add(window.cast(), page.cast())
        }

        servers.onNotice = { [weak self] in self?.toast($0) }
        tools.onNotice = { [weak self] in self?.toast($0) }
        servers.onProblem = { [weak self] message in
            guard let self else { return }
            _ = ErrorAlert.show(over: window, heading: tr("Server Problem"), message: message) {}
        }
        servers.confirmRemoval = { [weak self] name, confirmed in
            guard let self else { return }
            _ = MessageDialog(over: window, heading: tr("Remove “%s”?", name),
                              body: tr("Its settings and its API key in your keyring are deleted."), confirming: tr("_Remove")) {
                if $0 { confirmed() }
            }
        }
        wireOllama()
        servers.chooseCertificate = { [weak self] chosen in
            guard let self else { return }
            FileChooser.choose(over: window, title: tr("Choose the Server's CA Certificate"), saving: nil) { url in
                if let url { chosen(url.path) }
            }
        }
        // Escape closes the window from any row — once the row (an open list, say) has no use for it.
        Shortcuts.bindWhenUnused(["Escape": "window.close"], in: window)
        Signals.connectReturning(window.raw, "close-request") { [weak self] in
            self?.apply()
            return false
        }
        Signals.connect(window.raw, "destroy") { [weak self] in
            self?.apply()
            self?.servers.windowClosed()
            self?.ollama.windowClosed()
            self?.tools.windowClosed()
            closed()
        }
    }

    /// Ollama's groups: their notices and problems, the delete confirmation, and its servers
    /// followed whenever Preferences › Models is shown (they may have changed in Servers).
    private func wireOllama() {
        ollama.onNotice = { [weak self] in self?.toast($0) }
        ollama.onProblem = { [weak self] heading, message in
            guard let self else { return }
            _ = ErrorAlert.show(over: window, heading: heading, message: message) {}
        }
        ollama.confirmDelete = { [weak self] model, body, confirmed in
            guard let self else { return }
            _ = MessageDialog(over: window, heading: tr("Delete %s?", model.name), body: body, confirming: tr("_Delete")) {
                if $0 { confirmed() }
            }
        }
        ollama.onShowServers = { [weak self] in
            guard let self else { return }
            adw_preferences_window_set_visible_page(window.cast(), servers.widget.cast())
        }
        Signals.connect(window.raw, "notify::visible-page") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, adw_preferences_window_get_visible_page(window.cast()) == modelsPage.cast() else { return }
            ollama.refresh()
        }
    }

    func present() {
        gtk_window_present(window.cast())
    }

    /// Shows Preferences › Presets (the new-chat menu's "Manage Presets…").
    func showPresets() {
        guard let presets else { return }
        adw_preferences_window_set_visible_page(window.cast(), presets.widget.cast())
    }

    func toast(_ text: String) {
        adw_preferences_window_add_toast(window.cast(), Toasts.make(text, seconds: 3))
    }

    /// Writes what was changed (once).
    private func apply() {
        guard !applied else { return }
        applied = true
        settings.apply()
    }
}
