import AgentCore
import CGtk

/// The window and Preferences: opening it, and what its settings change once it closes —
/// the connection chats go to, the budget, the local models the model menu offers.
extension ChatWindow {
    /// Opens Preferences (Ctrl+,). What it changes is written when it closes; the chat
    /// switches connection only if something the connection depends on changed.
    func showPreferences() {
        guard let preferences else { return }
        if let preferencesWindow {
            preferencesWindow.present()
            return
        }
        let before = preferences.makeConnection().configuration
        let current = viewModel.defaultConnection
        do {
            let opened = try PreferencesWindow(parent: window, settings: preferences.settings, secrets: preferences.secrets,
                                               serverOfThisRun: current.isNamedServer ? current.locationDescription : nil,
                                               mcp: preferences.mcp, library: library, models: modelOptions,
                                               generationDefaults: generationDefaults) { [weak self] in
                guard let self else { return }
                let destinationChosen = preferencesWindow?.servers.leavesServerOfThisRun ?? false
                preferencesWindow = nil
                applyPreferences(connectionBefore: before, destinationChosen: destinationChosen)
            }
            preferencesWindow = opened
            opened.present()
        } catch {
            viewModel.status.report(tr("Preferences could not be opened: %s", ChatError.describe(error)))
        }
    }

    /// Closes Preferences if it is open; what it changed is written as it closes.
    func closePreferences() {
        guard let preferencesWindow else { return }
        gtk_window_destroy(preferencesWindow.window.cast())
    }

    /// A connection is made anew only when the settings it comes from changed in this
    /// Preferences session, and then only if it differs from the one chats go to (or will,
    /// once a streaming reply has ended). A server named for this run (`--server`) stays,
    /// with its options, until another destination is chosen (`destinationChosen`).
    func applyPreferences(connectionBefore: ChatConnection.Configuration, destinationChosen: Bool) {
        guard let preferences else { return }
        viewModel.contextBudget = preferences.settings.contextBudget
        viewModel.knowledgeShare = preferences.settings.knowledgeShare
        viewModel.defaultSystemPrompt = preferences.settings.systemPrompt
        refreshLocalModels()
        defer { serverOffer?.refresh() }
        let connection = preferences.makeConnection()
        let changed = viewModel.defaultConnection.isNamedServer ? destinationChosen : connection.configuration != connectionBefore
        guard changed, connection.configuration != viewModel.defaultConnection.configuration else { return }
        viewModel.use(connection)
    }

    /// Chats go to `server` from now on, as a server profile of its own.
    func use(_ server: FoundServer) {
        guard let preferences else { return }
        let before = preferences.makeConnection().configuration
        preferences.settings.use(server)
        applyPreferences(connectionBefore: before, destinationChosen: true)
        toasts.show(tr("Chats now go to %s", server.title))
        composer.input.focus()
    }

    /// The models the model menu offers under "On This Computer", and the threads they run with.
    func refreshLocalModels() {
        viewModel.setLocalModels(preferences?.settings.localModelChoices ?? (try? InstalledModels.builtIns()) ?? [],
                                 threads: preferences?.settings.localThreads)
    }
}
