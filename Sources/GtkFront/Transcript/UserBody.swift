import CGtk

/// What the user's bubble holds: their message as they wrote it, plain text (never
/// Markdown), in labels of a few lines each (`StackedLabel`), so even a long paste lays out
/// quickly.
@MainActor
final class UserBody {
    private let text = StackedLabel(classes: ["message-text"])
    private var shown: String?

    var widget: UnsafeMutablePointer<GtkWidget> { text.widget }

    func show(_ message: String) {
        guard message != shown else { return }
        shown = message
        text.setText(message)
    }

    /// Forgets what it showed (the row now shows another message).
    func reset() {
        shown = nil
    }

    /// The text shown (what a screen reader reads).
    var displayedText: String { StackedLabel.text(of: text.widget) ?? "" }
}
