import AgentCore
import CGtk

/// The main window: header bar with the model in use, the transcript, the composer, and
/// the error alert. It renders the view model and forwards the user's intents to it.
@MainActor
public final class ChatWindow {
    public let window: UnsafeMutablePointer<GtkWidget>
    let viewModel: ChatViewModel
    let transcript: TranscriptView
    let composer: ComposerBar
    let header: HeaderTitle
    /// The alert on screen, when GTK exposes it as a window (GTK 4.8).
    private(set) var alertWindow: UnsafeMutablePointer<GtkWindow>?
    private(set) var alertShowing = false
    /// The location consent dialog on screen, when GTK exposes it as a window (GTK 4.8).
    private(set) var consentWindow: UnsafeMutablePointer<GtkWindow>?
    private(set) var consentShowing = false

    public init(application: UnsafeMutablePointer<GtkApplication>, viewModel: ChatViewModel) {
        self.viewModel = viewModel
        window = gtk_application_window_new(application)
        gtk_window_set_title(window.cast(), AppIdentity.name)
        gtk_window_set_default_size(window.cast(), 760, 680)
        gtk_window_set_icon_name(window.cast(), AppIdentity.applicationID)

        header = HeaderTitle(viewModel: viewModel)
        let headerBar: UnsafeMutablePointer<GtkWidget> = gtk_header_bar_new()
        gtk_header_bar_set_title_widget(headerBar.opaque, header.widget)
        gtk_window_set_titlebar(window.cast(), headerBar)

        transcript = TranscriptView(viewModel: viewModel)
        composer = ComposerBar(viewModel: viewModel)
        let content: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(content.cast(), transcript.widget)
        gtk_box_append(content.cast(), composer.widget)
        gtk_window_set_child(window.cast(), content)

        installStopAction()
        viewModel.observe { [weak self] change in self?.apply(change) }
        gtk_widget_grab_focus(composer.entry)
    }

    public func present() {
        gtk_window_present(window.cast())
    }

    private func apply(_ change: ChatViewModel.Change) {
        transcript.apply(change)
        switch change {
        case .composer:
            composer.refresh()
        case .status:
            header.refresh()
        case .error:
            if viewModel.showError { showAlert() }
        case .messageInserted(let index):
            header.refresh()
            if viewModel.conversation[index].role == .user { gtk_widget_grab_focus(composer.entry) }
        case .consentRequested:
            showConsentDialog()
        case .messageChanged, .messageRemoved:
            break
        }
    }

    private func showConsentDialog() {
        guard !consentShowing else { return }
        consentShowing = true
        consentWindow = LocationConsentDialog.show(over: window, modelName: viewModel.modelName) { [weak self] answer in
            guard let self else { return }
            consentShowing = false
            consentWindow = nil
            viewModel.answerConsent(answer)
            present()
        }
    }

    private func showAlert() {
        guard !alertShowing else { return }
        alertShowing = true
        alertWindow = ErrorAlert.show(over: window, message: viewModel.errorMessage) { [weak self] in
            guard let self else { return }
            alertShowing = false
            alertWindow = nil
            viewModel.dismissError()
            present()
            gtk_widget_grab_focus(composer.entry)
        }
    }

    /// `win.stop`, bound to Escape: stops the reply in flight.
    private func installStopAction() {
        Actions.add("stop", to: window.raw) { [weak self] in self?.viewModel.stop() }
    }
}
