import AgentCore
import CGtk
import FoundationEssentials

/// Deleting a version of a message from its row's menu, with the messages after it in that
/// version: done at once, then "Version deleted" with Undo, as a deleted chat is (the HIG
/// prefers Undo to a question), for as long as the view model can undo it: while the chat
/// stays open and nothing new is asked in it.
@MainActor
final class VersionDeletion {
    private let viewModel: ChatViewModel
    private let toasts: Toasts
    /// The Undo of the version deleted last, while it is offered.
    private var undoToast: Toast?
    private var deletions = 0

    init(viewModel: ChatViewModel, transcript: TranscriptView, toasts: Toasts) {
        self.viewModel = viewModel
        self.toasts = toasts
        transcript.onDeleteVersion = { [weak self] id in self?.delete(id) }
        viewModel.observe { [weak self] _ in
            guard let self, undoToast != nil, !viewModel.canUndoDeleteVersion else { return }
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
        undoToast = toasts.show(tr("Version deleted"), button: tr("_Undo"),
                                onButton: { viewModel.undoDeleteVersion() },
                                onDismissed: { [weak self] in
                                    // A later delete has an Undo of its own.
                                    guard let self, deletions == deletion else { return }
                                    undoToast = nil
                                })
    }

    private func dismissUndo() {
        undoToast?.dismiss()
        undoToast = nil
    }
}
