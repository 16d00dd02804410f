import AgentCore
import CGtk

/// What an empty chat shows (libadwaita's `AdwStatusPage`): which model answers and where it
/// runs — or why it cannot — and three example prompts that fill the entry when clicked.
@MainActor
final class EmptyChatPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let exampleButtons: [UnsafeMutablePointer<GtkWidget>]
    private let viewModel: ChatViewModel
    private var page: OpaquePointer { OpaquePointer(widget) }

    static let examples = [
        tr("Explain how a rainbow forms"),
        tr("Write a haiku about the sea"),
        tr("Suggest three names for a black cat"),
    ]

    /// `chose(prompt)` runs when an example is clicked.
    init(viewModel: ChatViewModel, chose: @escaping @MainActor (String) -> Void) {
        self.viewModel = viewModel
        widget = adw_status_page_new()
        let examples: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_halign(examples, GTK_ALIGN_CENTER)
        var buttons: [UnsafeMutablePointer<GtkWidget>] = []
        for prompt in Self.examples {
            let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_label(prompt)
            GtkText.addClasses(button, "pill", "example-prompt")
            // Longer in other languages: the prompt wraps rather than widen the window past a phone's.
            if let label = gtk_button_get_child(button.cast()) {
                gtk_label_set_wrap(label.opaque, 1)
                gtk_label_set_wrap_mode(label.opaque, PANGO_WRAP_WORD_CHAR)
                gtk_label_set_justify(label.opaque, GTK_JUSTIFY_CENTER)
            }
            Signals.connect(button.raw, "clicked") { chose(prompt) }
            gtk_box_append(examples.cast(), button)
            buttons.append(button)
        }
        exampleButtons = buttons
        adw_status_page_set_child(page, examples)
        refresh()
    }

    var title: String { adw_status_page_get_title(page).map { String(cString: $0) } ?? "" }
    var descriptionText: String { adw_status_page_get_description(page).map { String(cString: $0) } ?? "" }

    /// Shows the connection as it stands.
    func refresh() {
        let connection = viewModel.connection
        let model = connection.modelName
        var icon = AppIdentity.applicationID
        let title: String
        let description: String
        switch (viewModel.status.connection, viewModel.localServerMissingRuntime) {
        case (.unavailable, let server?):
            let plan = RuntimeInstaller.plan(for: server.model, in: server.runtimeDirectory)
            icon = "folder-download-symbolic"
            title = tr("The Local Model Is Not Set Up")
            description = tr("Setting it up (the bar above) %1$s (%2$s); you can keep writing meanwhile. Or install it from a terminal: %3$s",
                             plan.work, plan.duration, server.model.installCommand)
                + "\n\n" + tr("Preferences (Ctrl+,) can send chats to another server.")
        case (.unavailable(let reason), nil):
            icon = "dialog-warning-symbolic"
            title = tr("%s Is Unavailable", model)
            description = reason + "\n\n" + tr("Preferences (Ctrl+,) can send chats to another server.")
        case (.starting, _):
            title = tr("Starting %s…", model)
            description = tr("It runs on this computer: nothing you write leaves it.")
        case (.idle, _), (.ready, _):
            title = tr("Chat with %s", model)
            description = connection.isLocal ? tr("It runs on this computer: nothing you write leaves it.")
                : tr("It runs on %s.", connection.locationDescription)
        }
        adw_status_page_set_icon_name(page, icon)
        adw_status_page_set_title(page, title)
        adw_status_page_set_description(page, PangoMarkup.escape(description))
        let usable = if case .unavailable = viewModel.status.connection { false } else { true }
        for button in exampleButtons { gtk_widget_set_visible(button, usable ? 1 : 0) }
    }
}
