import AgentCore
import CGtk

/// The header bar's title: "Agent" over the model in use and where it runs, or what
/// the connection is doing (starting the local model, unavailable).
@MainActor
final class HeaderTitle {
    let widget: UnsafeMutablePointer<GtkWidget>
    let subtitle: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        let title: UnsafeMutablePointer<GtkWidget> = gtk_label_new(AppIdentity.name)
        GtkText.addClasses(title, "title")
        subtitle = gtk_label_new(nil)
        GtkText.addClasses(subtitle, "subtitle")
        gtk_label_set_ellipsize(subtitle.opaque, PANGO_ELLIPSIZE_END)
        gtk_box_append(widget.cast(), title)
        gtk_box_append(widget.cast(), subtitle)
        refresh()
    }

    var subtitleText: String {
        let connection = viewModel.connection
        switch viewModel.connectionStatus {
        case .starting: return "Starting \(connection.modelName)…"
        case .unavailable: return "\(connection.modelName) is unavailable"
        case .idle, .ready: return "\(viewModel.modelName) · \(connection.locationDescription)"
        }
    }

    func refresh() {
        gtk_label_set_text(subtitle.opaque, subtitleText)
    }
}
