import AgentCore
import CGtk

/// The chat's header title, which opens the model menu: the chat's title over the model and
/// where it runs (or what the connection is doing: starting the local model, unavailable),
/// with a small arrow, on a flat button.
@MainActor
final class HeaderTitle {
    /// The menu button that is the header's title.
    let widget: UnsafeMutablePointer<GtkWidget>
    let menu: ModelMenu
    private let title: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        title = adw_window_title_new(AppIdentity.name, nil)
        let arrow: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("pan-down-symbolic")
        let face: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)
        gtk_box_append(face.cast(), title)
        gtk_box_append(face.cast(), arrow)
        menu = ModelMenu(viewModel: viewModel)
        widget = gtk_menu_button_new()
        gtk_menu_button_set_child(widget.opaque, face)
        gtk_menu_button_set_has_frame(widget.opaque, 0)
        gtk_menu_button_set_popover(widget.opaque, menu.popover)
        agent_widget_set_tooltip_text(widget, tr("Choose the Model (Ctrl+M)"))
        GtkText.addClasses(widget, "model-menu-button")
        refresh()
    }

    var titleText: String { viewModel.chat?.title ?? ChatTitle.untitled }

    var subtitleText: String {
        let connection = viewModel.connection
        switch viewModel.status.connection {
        case .starting: return tr("Starting %s…", connection.modelName)
        case .unavailable where viewModel.localServerMissingRuntime != nil: return tr("%s · not set up yet", connection.modelName)
        case .unavailable: return tr("%s is unavailable", connection.modelName)
        case .idle, .ready: return tr("%1$s · %2$s", viewModel.modelName, connection.locationDescription)
        }
    }

    func refresh() {
        adw_window_title_set_title(title.opaque, titleText)
        adw_window_title_set_subtitle(title.opaque, subtitleText)
        agent_accessible_set_label(widget, tr("%1$s, %2$s. Choose the model", titleText, subtitleText))
        menu.refresh()
    }

    /// Opens the model menu (Ctrl+M, the gone model's banner).
    func openMenu() {
        gtk_menu_button_popup(widget.opaque)
    }
}
