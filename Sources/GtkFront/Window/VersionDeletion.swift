import AgentCore
import CGtk
import FoundationEssentials

/// Deleting a version of a message from its row's menu, with the messages after it in that
/// version: done at once, then "Version deleted" with Undo while the chat stays open, as a
/// deleted chat is (the HIG prefers Undo to a question).
@MainActor
final class VersionDeletion {
    private let viewModel: ChatViewModel
    private let toasts: Toasts
    /// The Undo of the version deleted last, while it is offered.
    private var undoToast: Toast?
    private var undoChat: UUID?
    private var deletions = 0

    init(viewModel: ChatViewModel, transcript: TranscriptView, toasts: Toasts) {
        self.viewModel = viewModel
        self.toasts = toasts
        transcript.onDeleteVersion = { [weak self] id in self?.delete(id) }
        viewModel.observe { [weak self] change in
            // Undo brings the version back in its own chat only.
            guard let self, change == .reloaded, viewModel.chat?.id != undoChat else { return }
            dismissUndo()
        }
    }

    /// Deletes version `id` of a message, and offers Undo.
    func delete(_ id: UUID) {
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
