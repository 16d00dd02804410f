import AgentCore
import CGtk

/// A reply's reasoning, above its answer: a collapsed "Thinking…" line while the model
/// thinks, "Thought for N seconds" once it answered, that a click, Enter or Space opens onto
/// the thinking as dim, selectable plain text. The thinking is appended as it streams, into
/// a text view that lays out only the lines added.
@MainActor
final class ThinkingSection {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let text = PlainTextView(classes: ["thinking-text", "dim-label"])
    private var shownTitle = ""
    /// Runs when the user opens or closes the section.
    var onToggled: ((Bool) -> Void)?

    init() {
        title = gtk_label_new(nil)
        gtk_label_set_xalign(title.opaque, 0)
        GtkText.addClasses(title, "thinking-title", "dim-label")
        widget = gtk_expander_new(nil)
        gtk_expander_set_label_widget(widget.opaque, title)
        gtk_expander_set_child(widget.opaque, text.widget)
        GtkText.addClasses(widget, "thinking")
        gtk_widget_set_visible(widget, 0)
        openWithKeys()
        Signals.connect(widget.raw, "notify::expanded") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            onToggled?(isExpanded)
        }
    }

    private static let toggleKeys = [GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space, GDK_KEY_KP_Space]
        .map(UInt32.init)

    /// Enter and Space open and close the section. GtkExpander leaves them to the window's
    /// "activate the focus" keys, which the list row around it takes for itself first.
    private func openWithKeys() {
        guard let keys = gtk_event_controller_key_new() else { return }
        let expander = widget
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { keyval, state in
            guard Self.toggleKeys.contains(keyval), state.rawValue & Signals.keyModifiers == 0 else { return false }
            gtk_expander_set_expanded(expander.opaque, gtk_expander_get_expanded(expander.opaque) == 0 ? 1 : 0)
            return true
        }
        gtk_widget_add_controller(widget, keys)
    }

    var isExpanded: Bool { gtk_expander_get_expanded(widget.opaque) != 0 }

    /// The line shown on the collapsed section.
    var titleText: String { shownTitle }

    /// The thinking shown once expanded.
    var thinkingText: String { text.text }

    /// What holds the thinking: in the section only while it is open (tests).
    var thinkingWidget: UnsafeMutablePointer<GtkWidget> { text.widget }

    /// Opens or closes the section (a recycled row shows its message as the user left it).
    func setExpanded(_ expanded: Bool) {
        guard expanded != isExpanded else { return }
        let handler = onToggled
        onToggled = nil
        gtk_expander_set_expanded(widget.opaque, expanded ? 1 : 0)
        onToggled = handler
    }

    /// Shows `reply`'s reasoning as it stands (hidden when it has none).
    func show(_ reply: ChatMessage) {
        // Without the white space around it, which models put inside `<think>` tags.
        guard let reasoning = reply.reasoning, let first = reasoning.text.firstIndex(where: { !$0.isWhitespace }),
              let last = reasoning.text.lastIndex(where: { !$0.isWhitespace }) else {
            gtk_widget_set_visible(widget, 0)
            return
        }
        let thought = reasoning.text[first...last]
        gtk_widget_set_visible(widget, 1)
        let streaming = reply.state == .streaming || reply.state == .sending
        let label = reasoning.durationText ?? (streaming ? tr("Thinking…") : tr("Thinking"))
        if label != shownTitle {
            shownTitle = label
            gtk_label_set_text(title.opaque, label)
        }
        text.show(thought, limit: .max)
    }
}
