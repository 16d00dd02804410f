import AgentCore
import CGtk

/// The window and Preferences: opening it, and what its settings change once it closes —
/// the connection chats go to, the budget, the local models the model menu offers.
extension ChatWindow {
    /// Opens Preferences (Ctrl+,). What it changes is written when it closes; the chat
    /// switches connection only if the user chose where chats go, or if something the
    /// connection depends on changed (`applyPreferences`).
    func showPreferences() {
        guard let preferences else { return }
        if let preferencesWindow {
            preferencesWindow.present()
            return
        }
        let before = preferences.makeConnection().configuration
        let serverOfThisRun = preferences.serverOfThisRun.map { ($0.name, chatsGoToIt: chatsGoToServerOfThisRun) }
        do {
            let opened = try PreferencesWindow(parent: window, settings: preferences.settings, secrets: preferences.secrets,
                                               serverOfThisRun: serverOfThisRun,
                                               mcp: preferences.mcp, library: library, models: modelOptions,
                                               generationDefaults: generationDefaults) { [weak self] in
                guard let self else { return }
                let choice = preferencesWindow?.servers.destinationChoice
                preferencesWindow = nil
                applyPreferences(connectionBefore: before, choice: choice)
            }
            preferencesWindow = opened
            opened.present()
        } catch {
            viewModel.status.report(tr("Preferences could not be opened: %s", ChatError.describe(error)),
                                    heading: tr("Could Not Open Preferences"))
        }
    }

    /// Closes Preferences if it is open; what it changed is written as it closes.
    func closePreferences() {
        guard let preferencesWindow else { return }
        gtk_window_destroy(preferencesWindow.window.cast())
    }

    /// Whether chats go to the server named with `--server` for this run.
    var chatsGoToServerOfThisRun: Bool {
        preferences?.serverOfThisRun != nil && viewModel.defaultConnection.isNamedServer
    }

    /// The connection chats go to after Preferences: where the user chose (`choice`), or else
    /// a new one only when the settings it comes from changed in this Preferences session —
    /// the server of this run stays, taking the tools the settings leave on. Either way only
    /// if it differs from the one chats go to (or will, once a streaming reply has ended).
    func applyPreferences(connectionBefore: ChatConnection.Configuration, choice: DestinationChoice?) {
        guard let preferences else { return }
        viewModel.contextBudget = preferences.settings.contextBudget
        viewModel.knowledgeShare = preferences.settings.knowledgeShare
        viewModel.defaultSystemPrompt = preferences.settings.systemPrompt
        refreshLocalModels()
        defer { serverOffer?.refresh() }
        let settingsConnection = preferences.makeConnection()
        let wanted: ChatConnection? = switch choice {
        case .serverOfThisRun: preferences.serverOfThisRun?.makeConnection()
        case .settings: settingsConnection
        case nil where settingsConnection.configuration == connectionBefore: nil
        case nil: chatsGoToServerOfThisRun ? preferences.serverOfThisRun?.makeConnection() : settingsConnection
        }
        guard let wanted, wanted.configuration != viewModel.defaultConnection.configuration else { return }
        viewModel.use(wanted)
    }

    /// Chats go to `server` from now on, as a server profile of its own.
    func use(_ server: FoundServer) {
        guard let preferences else { return }
        let before = preferences.makeConnection().configuration
        preferences.settings.use(server)
        applyPreferences(connectionBefore: before, choice: .settings)
        toasts.show(tr("Chats now go to %s", server.title))
        composer.input.focus()
    }

    /// The models the model menu offers under "On This Computer", and the threads they run with.
    func refreshLocalModels() {
        viewModel.setLocalModels(preferences?.settings.localModelChoices ?? (try? InstalledModels.builtIns()) ?? [],
                                 threads: preferences?.settings.localThreads)
    }
}
