import AgentCore
import CGtk

/// The chat side of the window: its header bar (a back button when the window is folded,
/// the chat's title and model, the chat menu), the empty chat's page or the transcript, and
/// the composer; and, for screen readers only, the announcement of a finished reply.
@MainActor
final class ChatPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let headerBar: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    let chatMenuButton: UnsafeMutablePointer<GtkWidget>
    let header: HeaderTitle
    let transcript: TranscriptView
    let emptyPage: EmptyChatPage
    let composer: ComposerBar
    /// The folders the chat asks about, and their indexing.
    let knowledgeBar: KnowledgeBar
    /// Why the chat cannot be had (the model is unavailable, the chats could not be opened).
    let banner = Banner(buttonLabel: tr("_Preferences"), action: "win.preferences")
    /// That the chat's model has gone from its server, with the model menu a click away.
    let modelBanner = Banner(buttonLabel: tr("Choose _Model…"), action: "win.choose-model")
    /// Sets up the local model when it is not installed.
    let runtimeSetup: RuntimeSetupBar
    /// What the chat's settings set apart from Preferences'.
    let settingsSummary: SettingsSummaryBar
    let announcer = ReplyAnnouncer()
    /// A problem that lasts the whole session (the chat store could not be opened).
    var lastingProblem: String? {
        didSet { refreshBanner() }
    }
    private let content: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel

    init(viewModel: ChatViewModel, withLibrary: Bool, readAloud: ReadAloud) {
        self.viewModel = viewModel
        header = HeaderTitle(viewModel: viewModel)
        transcript = TranscriptView(viewModel: viewModel, readAloud: readAloud)
        composer = ComposerBar(viewModel: viewModel)
        knowledgeBar = KnowledgeBar(knowledge: viewModel.knowledge)
        runtimeSetup = RuntimeSetupBar(viewModel: viewModel)
        settingsSummary = SettingsSummaryBar(viewModel: viewModel)
        let composer = composer
        composer.input.onPage = { [transcript] up in transcript.scrollPage(up: up) }
        emptyPage = EmptyChatPage(viewModel: viewModel) { prompt in
            viewModel.draft = prompt
            composer.input.focus()
        }

        headerBar = adw_header_bar_new()
        adw_header_bar_set_title_widget(OpaquePointer(headerBar), header.widget)
        backButton = Menus.actionButton(icon: "go-previous-symbolic", action: "win.show-chats", tooltip: tr("Back to the Chats"))
        gtk_widget_set_visible(backButton, 0)
        adw_header_bar_pack_start(OpaquePointer(headerBar), backButton)
        chatMenuButton = Menus.chat(withLibrary: withLibrary)
        adw_header_bar_pack_end(OpaquePointer(headerBar), chatMenuButton)

        content = gtk_stack_new()
        // Each page as large as it needs, not as the largest (the narrow window); only the
        // page shown is measured.
        gtk_stack_set_hhomogeneous(content.opaque, 0)
        gtk_stack_set_vhomogeneous(content.opaque, 0)
        gtk_stack_add_named(content.opaque, emptyPage.widget, "empty")
        gtk_stack_add_named(content.opaque, transcript.widget, "transcript")
        gtk_widget_set_vexpand(content, 1)
        let overlay: UnsafeMutablePointer<GtkWidget> = gtk_overlay_new()
        gtk_overlay_set_child(overlay.opaque, content)
        gtk_overlay_add_overlay(overlay.opaque, announcer.label)

        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        // A phone's 360 px, less the window's frame.
        gtk_widget_set_size_request(widget, 320, -1)
        gtk_widget_set_hexpand(widget, 1)
        gtk_box_append(widget.cast(), headerBar)
        gtk_box_append(widget.cast(), banner.widget)
        gtk_box_append(widget.cast(), modelBanner.widget)
        gtk_box_append(widget.cast(), runtimeSetup.widget)
        gtk_box_append(widget.cast(), settingsSummary.widget)
        gtk_box_append(widget.cast(), knowledgeBar.widget)
        gtk_box_append(widget.cast(), overlay)
        gtk_box_append(widget.cast(), composer.widget)
        FileIntake.acceptDrops(on: widget, into: viewModel.files)
        runtimeSetup.onShownChanged = { [weak self] in self?.refreshBanner() }
        showContent()
    }

    /// The transcript, or the empty chat's page when there is nothing to show.
    func showContent() {
        let empty = viewModel.conversation.count == 0
        gtk_stack_set_visible_child_name(content.opaque, empty ? "empty" : "transcript")
        refreshBanner()
    }

    var showsEmptyPage: Bool { viewModel.conversation.count == 0 }

    /// The banner says why the model cannot answer — unless the empty chat's page or the
    /// set-up bar says it already — and any lasting problem.
    private func refreshBanner() {
        var problems = lastingProblem.map { [$0] } ?? []
        if case .unavailable(let reason) = viewModel.status.connection, !showsEmptyPage, !runtimeSetup.isShown {
            problems.append(tr("%1$s is unavailable. %2$s", viewModel.connection.modelName, reason))
        }
        banner.show(problems.isEmpty ? nil : problems.joined(separator: "\n\n"))
        modelBanner.show(viewModel.goneModel.map(goneModelText))
    }

    /// Where the chat's model went missing from, in the banner's words: "no longer" for a
    /// model chosen for the chat; "not" for the connection's own (the server profile's,
    /// `--model`'s, or the default), which the server may never have had.
    private func goneModelText(_ gone: ModelChoice) -> String {
        let name = viewModel.displayName(of: gone)
        return switch gone.place {
        case .server where gone != viewModel.chosenModel: tr("“%s” is not on this server", name)
        case .server where viewModel.defaultConnection.isLocal: tr("“%s” was on a server no longer in use", name)
        case .server: tr("“%s” is no longer on this server", name)
        case .thisComputer: tr("“%s” is no longer on this computer", name)
        }
    }

    /// Mirrors one view-model change.
    func apply(_ change: ChatViewModel.Change) {
        transcript.apply(change)
        switch change {
        case .knowledge:
            knowledgeBar.refresh()
        case .composer, .files:
            composer.refresh()
            if viewModel.editingMessageID != nil { composer.input.focus() }
        case .status:
            header.refresh()
            emptyPage.refresh()
            runtimeSetup.refresh()
            refreshBanner()
        case .messagesInserted(let indices):
            showContent()
            header.refresh()
            // The keyboard stays ready for the next message.
            if viewModel.isJustSent(indices) { composer.input.focus() }
        case .messagesRemoved:
            showContent()
        case .reloaded:
            showContent()
            header.refresh()
            composer.refresh()
        case .settings:
            settingsSummary.refresh()
        case .messageChanged, .messagesUnloaded, .error, .consentRequested, .consentSettled, .replyFinished, .replyLeft, .focused,
             .versionShown:
            break
        }
    }
}
