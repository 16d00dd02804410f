import CGtk

/// A brief notice over the conversation — "Copied", "“Title” deleted · Undo" — sliding up
/// for a few seconds, as GNOME's toasts do.
@MainActor
final class Toast {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let actionButton: UnsafeMutablePointer<GtkWidget>
    private let timer = OneShotTimer()
    private var action: (@MainActor () -> Void)?
    private var dismissed: (@MainActor () -> Void)?

    init() {
        label = gtk_label_new(nil)
        gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(label.opaque, 40)
        actionButton = gtk_button_new_with_mnemonic("_Undo")
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        GtkText.addClasses(box, "app-notification", "toast")
        gtk_box_append(box.cast(), label)
        gtk_box_append(box.cast(), actionButton)
        widget = gtk_revealer_new()
        gtk_revealer_set_transition_type(widget.opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(widget.opaque, box)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(widget, 76)
        gtk_widget_set_can_target(widget, 1)
        Signals.connect(actionButton.raw, "clicked") { [weak self] in
            guard let self else { return }
            let action = self.action
            hide()
            action?()
        }
    }

    var isShown: Bool { gtk_revealer_get_reveal_child(widget.opaque) != 0 }
    var text: String { String(cString: gtk_label_get_text(label.opaque)) }

    /// Shows `message` for `seconds`, with a button when `actionLabel` is given;
    /// `dismissed` runs if it goes away on its own.
    func show(_ message: String, actionLabel: String? = nil, seconds: UInt32 = 3,
              action: (@MainActor () -> Void)? = nil, dismissed: (@MainActor () -> Void)? = nil) {
        self.action = action
        self.dismissed = dismissed
        gtk_label_set_text(label.opaque, message)
        if let actionLabel { gtk_button_set_label(actionButton.cast(), actionLabel) }
        gtk_widget_set_visible(actionButton, actionLabel == nil ? 0 : 1)
        gtk_revealer_set_reveal_child(widget.opaque, 1)
        timer.start(seconds: seconds) { [weak self] in
            guard let self else { return }
            let dismissed = self.dismissed
            hide()
            dismissed?()
        }
    }

    func hide() {
        timer.cancel()
        action = nil
        dismissed = nil
        gtk_revealer_set_reveal_child(widget.opaque, 0)
    }
}
