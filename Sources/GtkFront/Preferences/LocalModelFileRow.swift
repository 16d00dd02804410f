import AgentCore
import CGtk
import FoundationEssentials

/// A GGUF file in Preferences › Models: a radio button among the models, the file's
/// name and where it is (or that it has gone), and a button that forgets it.
@MainActor
final class LocalModelFileRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let file: URL
    let button: UnsafeMutablePointer<GtkWidget>
    let removeButton: UnsafeMutablePointer<GtkWidget>
    /// Whether the file is still where it was chosen.
    let isPresent: Bool
    /// The user picked this file.
    var onSelected: (() -> Void)?
    /// The user asked to forget this file.
    var onRemove: (() -> Void)?

    /// `group`: a radio button of the other models, whose group this one joins.
    init(file: URL, group: UnsafeMutablePointer<GtkWidget>) {
        self.file = file
        isPresent = FileManager.default.fileExists(atPath: file.path)
        let model = LocalModel.file(file)
        button = gtk_check_button_new()
        gtk_check_button_set_group(button.cast(), group.cast())
        widget = adw_action_row_new()
        adw_preferences_row_set_use_markup(widget.cast(), 0)
        adw_preferences_row_set_title(widget.cast(), model.displayName)
        let place = AppIdentity.tildePath(file.path)
        adw_action_row_set_subtitle(widget.cast(), isPresent ? place : tr("Missing: no longer at %s", place))
        adw_action_row_set_subtitle_lines(widget.cast(), 2)
        if !isPresent { gtk_widget_add_css_class(widget, "missing-model") }
        adw_action_row_add_prefix(widget.cast(), button)
        adw_action_row_set_activatable_widget(widget.cast(), button)
        agent_accessible_set_label(button, model.displayName)
        if !isPresent {
            let warning: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("dialog-warning-symbolic")
            gtk_widget_add_css_class(warning, "warning")
            agent_widget_set_tooltip_text(warning, tr("The file is missing"))
            adw_action_row_add_suffix(widget.cast(), warning)
        }
        removeButton = gtk_button_new_from_icon_name("user-trash-symbolic")
        gtk_widget_set_valign(removeButton, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(removeButton, "flat")
        agent_widget_set_tooltip_text(removeButton, tr("Remove from the list (the file stays)"))
        agent_accessible_set_label(removeButton, tr("Remove %s", model.displayName))
        adw_action_row_add_suffix(widget.cast(), removeButton)
        Signals.connect(button.raw, "toggled") { [weak self] in
            guard let self, gtk_check_button_get_active(button.cast()) != 0 else { return }
            onSelected?()
        }
        Signals.connect(removeButton.raw, "clicked") { [weak self] in self?.onRemove?() }
    }

    var isSelected: Bool {
        get { gtk_check_button_get_active(button.cast()) != 0 }
        set { gtk_check_button_set_active(button.cast(), newValue ? 1 : 0) }
    }
}
