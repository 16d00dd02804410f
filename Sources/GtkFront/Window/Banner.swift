import AgentCore
import CGtk

/// A bar across the top of the chat that says what the window cannot do and why (the local
/// model is not installed, the chats could not be opened), or offers something found for the
/// user (a server running on this computer) — in the window, never in a modal alert that
/// would take the keys the user is typing. libadwaita 1.2 has no AdwBanner; this is its
/// substitute, a revealer with the banner's look.
@MainActor
final class Banner {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    /// An offer's close button (nil for a problem: it stays while it applies).
    let closeButton: UnsafeMutablePointer<GtkWidget>?
    /// Runs when the user dismisses an offer with its close button.
    var onDismissed: (() -> Void)?

    /// `buttonLabel` and `action`: the button that helps (Preferences). `offer`: the bar
    /// suggests something rather than warns — tinted with the accent colour, its button the
    /// suggested action, and a close button that dismisses it.
    init(buttonLabel: String, action: String, offer: Bool = false) {
        label = gtk_label_new(nil)
        gtk_label_set_wrap(label.opaque, 1)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_widget_set_hexpand(label, 1)
        button = MnemonicButton.make(buttonLabel)
        gtk_actionable_set_action_name(OpaquePointer(button), action)
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        GtkText.addClasses(box, "banner")
        gtk_box_append(box.cast(), label)
        gtk_box_append(box.cast(), button)
        widget = gtk_revealer_new()
        gtk_revealer_set_child(widget.opaque, box)
        gtk_revealer_set_transition_type(widget.opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        guard offer else {
            closeButton = nil
            return
        }
        GtkText.addClasses(box, "offer")
        GtkText.addClasses(button, "suggested-action")
        let close: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("window-close-symbolic")
        GtkText.addClasses(close, "flat", "circular")
        gtk_widget_set_valign(close, GTK_ALIGN_CENTER)
        agent_widget_set_tooltip_text(close, tr("Dismiss"))
        agent_accessible_set_label(close, tr("Dismiss"))
        gtk_box_append(box.cast(), close)
        closeButton = close
        Signals.connect(close.raw, "clicked") { [weak self] in
            self?.show(nil)
            self?.onDismissed?()
        }
    }

    /// Shows `text`, or hides the bar when nil.
    func show(_ text: String?) {
        gtk_label_set_text(label.opaque, text ?? "")
        gtk_revealer_set_reveal_child(widget.opaque, text == nil ? 0 : 1)
    }

    var text: String? {
        gtk_revealer_get_reveal_child(widget.opaque) != 0 ? String(cString: gtk_label_get_text(label.opaque)) : nil
    }
}
