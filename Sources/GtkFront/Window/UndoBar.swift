import AgentCore
import CGtk

/// The notice after deleting a chat — "“Title” deleted · Undo" — sliding up over the
/// conversation for a few seconds, as GNOME's toasts do.
@MainActor
final class UndoBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    let undoButton: UnsafeMutablePointer<GtkWidget>
    private let library: ChatLibrary
    private let timer = OneShotTimer()
    static let seconds: UInt32 = 6

    init(library: ChatLibrary) {
        self.library = library
        label = gtk_label_new(nil)
        gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_max_width_chars(label.opaque, 40)
        undoButton = gtk_button_new_with_mnemonic("_Undo")
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        GtkText.addClasses(box, "app-notification", "undo-bar")
        gtk_box_append(box.cast(), label)
        gtk_box_append(box.cast(), undoButton)
        widget = gtk_revealer_new()
        gtk_revealer_set_transition_type(widget.opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_child(widget.opaque, box)
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_END)
        gtk_widget_set_margin_bottom(widget, 76)
        Signals.connect(undoButton.raw, "clicked") { [weak self] in self?.library.undoDelete() }
        library.observe { [weak self] change in
            if change == .undo { self?.refresh() }
        }
    }

    var isShown: Bool { gtk_revealer_get_reveal_child(widget.opaque) != 0 }

    private func refresh() {
        if let deleted = library.recentlyDeleted {
            gtk_label_set_text(label.opaque, "“\(deleted.title)” deleted")
            gtk_revealer_set_reveal_child(widget.opaque, 1)
            timer.start(seconds: Self.seconds) { [weak self] in self?.library.forgetDeleted() }
        } else {
            timer.cancel()
            gtk_revealer_set_reveal_child(widget.opaque, 0)
        }
    }
}
