import AgentCore
import CGtk

/// A strip under the header saying what this chat sets apart from a new plain chat — its
/// preset, its own model, prompt, temperature, length, tools off — as one line; clicking it
/// opens the chat's settings. Hidden while the chat follows Preferences in everything.
@MainActor
final class SettingsSummaryBar {
    /// The flat button that is the strip.
    let widget: UnsafeMutablePointer<GtkWidget>
    let label: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        let icon: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("emblem-system-symbolic")
        label = gtk_label_new(nil)
        // Two lines at most in a narrow window, then an ellipsis.
        gtk_label_set_wrap(label.opaque, 1)
        gtk_label_set_lines(label.opaque, 2)
        gtk_label_set_ellipsize(label.opaque, PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_widget_set_hexpand(label, 1)
        GtkText.addClasses(label, "caption")
        let face: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        gtk_box_append(face.cast(), icon)
        gtk_box_append(face.cast(), label)
        widget = gtk_button_new()
        gtk_button_set_child(widget.cast(), face)
        gtk_button_set_has_frame(widget.cast(), 0)
        gtk_actionable_set_action_name(OpaquePointer(widget), "win.chat-settings")
        agent_widget_set_tooltip_text(widget, tr("Chat Settings (Ctrl+I)"))
        GtkText.addClasses(widget, "settings-summary", "dim-label")
        refresh()
    }

    /// "Translator · own system prompt · temperature 0.3 · no tools".
    var text: String {
        ((viewModel.presetName.map { [$0] } ?? []) + viewModel.settingsDifferences).joined(separator: " · ")
    }

    func refresh() {
        let text = text
        gtk_label_set_text(label.opaque, text)
        agent_accessible_set_label(widget, tr("Chat settings: %s", text))
        gtk_widget_set_visible(widget, text.isEmpty ? 0 : 1)
    }
}
