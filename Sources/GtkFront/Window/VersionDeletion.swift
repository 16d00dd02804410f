import AgentCore
import CGtk
import FoundationEssentials

/// Deleting a version of a message from its row's menu: asked first (the messages after it
/// in that version go too), then "Version deleted" with Undo while the chat stays open.
@MainActor
final class VersionDeletion {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel
    private let toasts: Toasts
    /// The question while it is open.
    private(set) var dialog: MessageDialog?
    /// The Undo of the version deleted last, while it is offered.
    private var undoToast: Toast?
    private var undoChat: UUID?
    private var deletions = 0

    init(window: UnsafeMutablePointer<GtkWidget>, viewModel: ChatViewModel, transcript: TranscriptView, toasts: Toasts) {
        self.window = window
        self.viewModel = viewModel
        self.toasts = toasts
        transcript.onDeleteVersion = { [weak self] id in self?.ask(id) }
        viewModel.observe { [weak self] change in
            // Undo brings the version back in its own chat only.
            guard let self, change == .reloaded, viewModel.chat?.id != undoChat else { return }
            dismissUndo()
        }
    }

    /// Asks whether to delete version `id` of a message, and does.
    func ask(_ id: UUID) {
        guard dialog == nil, viewModel.canDeleteVersion(id) else { return }
        dialog = MessageDialog(over: window, heading: tr("Delete This Version?"),
                               body: tr("The messages after it in this version are deleted with it. The other versions stay."),
                               confirming: tr("_Delete")) { [weak self] confirmed in
            guard let self else { return }
            dialog = nil
            if confirmed { delete(id) }
        }
    }

    private func delete(_ id: UUID) {
        guard viewModel.canDeleteVersion(id) else { return }
        viewModel.deleteVersion(id)
        // Not deleted (the store refused, and the status says so): nothing to undo.
        guard viewModel.conversation.index(of: id) == nil else { return }
        dismissUndo()
        deletions += 1
        let (deletion, viewModel) = (deletions, viewModel)
        undoChat = viewModel.chat?.id
        undoToast = toasts.show(tr("Version deleted"), button: tr("_Undo"),
                                onButton: { viewModel.undoDeleteVersion() },
                                onDismissed: { [weak self] in
                                    // A later delete has an Undo of its own.
                                    guard let self, deletions == deletion else { return }
                                    undoToast = nil
                                    undoChat = nil
                                })
    }

    private func dismissUndo() {
        undoToast?.dismiss()
        undoToast = nil
        undoChat = nil
    }
}
