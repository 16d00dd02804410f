import AgentCore
import CGtk

/// "Pull a Model" on one Ollama server: the name typed with its Pull button, and the pull it
/// starts, shown in an `OllamaPullRow` and cancelled from there — one pull at a time.
@MainActor
final class OllamaPullRows {
    let entry: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    let progress = OllamaPullRow()
    private var pull: Task<Void, Never>?
    private var closed = false
    /// The server to pull onto, asked for when a pull starts (its key comes from the keyring);
    /// nil: the server is gone.
    var manager: (@MainActor () async -> OllamaModelManager?)?
    var onNotice: ((String) -> Void)?
    /// A model was pulled: the list should show it.
    var onPulled: (() -> Void)?

    init() {
        entry = adw_entry_row_new()
        adw_preferences_row_set_use_markup(entry.cast(), 0)
        adw_preferences_row_set_title(entry.cast(), tr("Pull a Model (such as qwen3:4b)"))
        button = MnemonicButton.make(tr("_Pull"))
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(button, tr("Download the model onto this server"))
        gtk_widget_set_sensitive(button, 0)
        adw_entry_row_add_suffix(entry.cast(), button)
        Signals.connect(entry.raw, "changed") { [weak self] in self?.updateButton() }
        Signals.connect(entry.raw, "entry-activated") { [weak self] in self?.start() }
        Signals.connect(button.raw, "clicked") { [weak self] in self?.start() }
        progress.onButton = { [weak self] in self?.progressButton() }
    }

    var isPulling: Bool { pull != nil }

    /// The window closed: a pull in flight stops (Ollama keeps what it has, so pulling again
    /// resumes it).
    func windowClosed() {
        closed = true
        pull?.cancel()
    }

    private var typedName: String { PreferenceRows.text(of: entry).trimmed }

    private func updateButton() {
        gtk_widget_set_sensitive(button, !typedName.isEmpty && pull == nil ? 1 : 0)
    }

    /// Pulls the typed model, its progress coalesced to one update per main-loop turn.
    func start() {
        let name = typedName
        guard !name.isEmpty, pull == nil else { return }
        progress.start(name)
        let relay = MainActorRelay<OllamaPullProgress> { [weak self] steps in
            guard let self, let last = steps.last, pull != nil else { return }
            progress.show(last)
        }
        let manager = manager
        pull = Task { [weak self] in
            let outcome: Result<Void, any Error>
            do {
                guard let server = await manager?() else { throw CancellationError() }
                try await server.pull(name) { relay.push($0) }
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            relay.flush()
            self?.ended(name, outcome)
        }
        updateButton()
    }

    private func ended(_ name: String, _ outcome: Result<Void, any Error>) {
        pull = nil
        guard !closed else { return }
        updateButton()
        switch outcome {
        case .success:
            progress.hide()
            if typedName == name { gtk_editable_set_text(entry.opaque, "") }
            onNotice?(tr("Pulled %s", name))
            onPulled?()
        case .failure(is CancellationError):
            progress.hide()
            onNotice?(tr("Stopped pulling %s", name))
        case .failure(let error):
            progress.fail(name, message: ChatError.describe(error))
        }
    }

    /// Cancel while pulling, Dismiss after a failure.
    private func progressButton() {
        if let pull {
            pull.cancel()
        } else {
            progress.hide()
        }
    }
}
