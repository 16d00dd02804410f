import AgentCore
import CGtk

/// A bar under the chat's header that sets up the local model when it is not installed:
/// the offer ("Set up the local model — about 7 minutes", a minute or two when only the model
/// is missing), then a progress bar over the set-up's phases with Cancel, and, if it fails,
/// why and the end of its log with Try Again.
/// The window stays usable the whole time (another server can be chosen meanwhile); once
/// the runtime is installed the bar goes away and the local model starts.
@MainActor
final class RuntimeSetupBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let messageLabel: UnsafeMutablePointer<GtkWidget>
    /// Set Up, or Try Again after a failure.
    let startButton: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    let progressBar: UnsafeMutablePointer<GtkWidget>
    /// The end of a failed set-up's log.
    let logLabel: UnsafeMutablePointer<GtkWidget>
    private let logCard: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel
    private(set) var installer: RuntimeInstaller?
    /// Told when the runtime has been installed.
    var onInstalled: (() -> Void)?
    /// Told when the bar appears or goes away.
    var onShownChanged: (() -> Void)?

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        messageLabel = gtk_label_new(nil)
        gtk_label_set_wrap(messageLabel.opaque, 1)
        gtk_label_set_xalign(messageLabel.opaque, 0)
        gtk_widget_set_hexpand(messageLabel, 1)
        startButton = MnemonicButton.make(tr("_Set Up"))
        GtkText.addClasses(startButton, "suggested-action")
        gtk_widget_set_valign(startButton, GTK_ALIGN_CENTER)
        cancelButton = MnemonicButton.make(tr("_Cancel"))
        gtk_widget_set_valign(cancelButton, GTK_ALIGN_CENTER)
        let row: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_box_append(row.cast(), messageLabel)
        gtk_box_append(row.cast(), cancelButton)
        gtk_box_append(row.cast(), startButton)
        progressBar = gtk_progress_bar_new()
        agent_accessible_set_label(progressBar, tr("Local model set-up"))
        (logCard, logLabel) = MonospaceBlock.make(text: "", maxHeight: 160, accessibleName: tr("The end of the set-up’s log"))
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        GtkText.addClasses(box, "banner", "setup-bar")
        gtk_box_append(box.cast(), row)
        gtk_box_append(box.cast(), progressBar)
        gtk_box_append(box.cast(), logCard)
        widget = gtk_revealer_new()
        gtk_revealer_set_child(widget.opaque, box)
        gtk_revealer_set_transition_type(widget.opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        Signals.connect(startButton.raw, "clicked") { [weak self] in self?.start() }
        Signals.connect(cancelButton.raw, "clicked") { [weak self] in self?.cancel() }
        refresh()
    }

    var isShown: Bool { gtk_revealer_get_reveal_child(widget.opaque) != 0 }

    /// Starts the set-up, when chats go to the local model and its runtime is missing.
    func start() {
        guard let server = viewModel.localServerMissingRuntime else {
            refresh()
            return
        }
        if installer?.runtimeDirectory != server.runtimeDirectory || installer?.model != server.model {
            installer?.cancel()
            let installer = RuntimeInstaller(runtimeDirectory: server.runtimeDirectory, model: server.model)
            installer.onChange = { [weak self, weak installer] in
                guard let self, let installer, installer === self.installer else { return }
                installerChanged(installer)
            }
            self.installer = installer
        }
        installer?.start()
        refresh()
    }

    /// Stops a set-up under way.
    func cancel() {
        installer?.cancel()
    }

    private func installerChanged(_ installer: RuntimeInstaller) {
        if installer.state == .finished {
            self.installer = nil
            viewModel.localRuntimeInstalled()
            onInstalled?()
        }
        refresh()
    }

    /// Shows the set-up as it stands: offered while the runtime is missing, its progress
    /// while it runs, its failure until tried again; hidden otherwise.
    func refresh() {
        let state = installer?.state ?? .idle
        let missing = viewModel.localServerMissingRuntime
        let offered = missing != nil
        var message = ""
        var startLabel = tr("_Set Up")
        var fraction: Double?
        var tail = ""
        switch state {
        case .running(let progress):
            message = progress.description
            fraction = progress.fraction
        case .cancelling:
            message = tr("Cancelling the set-up…")
            fraction = gtk_progress_bar_get_fraction(progressBar.opaque)
        case .failed(let reason, let logTail):
            message = tr("The local model could not be set up. %s", reason)
            startLabel = tr("_Try Again")
            tail = logTail
        case .idle, .finished:
            if let server = missing ?? viewModel.connection.localServer {
                let plan = RuntimeInstaller.plan(for: server.model, in: server.runtimeDirectory)
                message = tr("Set up the local model — %1$s. Agent %2$s; the window stays usable meanwhile.", plan.duration, plan.work)
            }
        }
        let shown = installer?.isRunning == true || (offered && state != .finished)
        gtk_label_set_text(messageLabel.opaque, message)
        MnemonicButton.setLabel(startButton, startLabel)
        gtk_widget_set_visible(startButton, installer?.isRunning == true ? 0 : 1)
        gtk_widget_set_visible(cancelButton, installer?.isRunning == true ? 1 : 0)
        gtk_widget_set_sensitive(cancelButton, state == .cancelling ? 0 : 1)
        gtk_widget_set_visible(progressBar, fraction == nil ? 0 : 1)
        gtk_progress_bar_set_fraction(progressBar.opaque, fraction ?? 0)
        gtk_label_set_text(logLabel.opaque, tail)
        gtk_widget_set_visible(logCard, tail.isEmpty ? 0 : 1)
        if shown != isShown {
            gtk_revealer_set_reveal_child(widget.opaque, shown ? 1 : 0)
            onShownChanged?()
        }
    }
}
