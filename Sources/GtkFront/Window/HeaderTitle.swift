import AgentCore
import CGtk

/// The chat's header title: the chat's title over the model and where it runs, or what the
/// connection is doing (starting the local model, unavailable).
@MainActor
final class HeaderTitle {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        widget = adw_window_title_new(AppIdentity.name, nil)
        refresh()
    }

    var titleText: String { viewModel.chat?.title ?? ChatTitle.untitled }

    var subtitleText: String {
        let connection = viewModel.connection
        switch viewModel.status.connection {
        case .starting: return "Starting \(connection.modelName)…"
        case .unavailable: return "\(connection.modelName) is unavailable"
        case .idle, .ready: return "\(viewModel.modelName) · \(connection.locationDescription)"
        }
    }

    func refresh() {
        adw_window_title_set_title(OpaquePointer(widget), titleText)
        adw_window_title_set_subtitle(OpaquePointer(widget), subtitleText)
    }
}
