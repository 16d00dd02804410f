import AgentCore
import CGtk
import FoundationEssentials

/// The main window (`AdwApplicationWindow`): the chat list beside the chat, folding into
/// two pages with a back button when the window is narrow (`AdwLeaflet`), toasts over both,
/// and the dialogs (error alert, consent questions, rename). It renders the view models and
/// forwards the user's intents to them; every command is a `win.` action, so buttons, menu
/// items and shortcuts share one path.
@MainActor
public final class ChatWindow {
    public let window: UnsafeMutablePointer<GtkWidget>
    let viewModel: ChatViewModel
    let library: ChatLibrary?
    let chatPage: ChatPage
    let sidebar: SidebarView?
    let toasts: Toasts
    let preferences: AppPreferences?
    /// A model server found running on this computer, offered while chats go to the local model.
    let serverOffer: FoundServerOffer?
    /// Sidebar and chat side by side, or one at a time in a narrow window; nil without a library.
    let leaflet: UnsafeMutablePointer<GtkWidget>?
    let sidebarPage: UnsafeMutablePointer<GtkWidget>?
    let sidebarHeader: UnsafeMutablePointer<GtkWidget>?
    /// The main menu's button (in the sidebar's header, or the chat's without a sidebar).
    let mainMenuButton: UnsafeMutablePointer<GtkWidget>
    /// The Preferences window while it is open.
    var preferencesWindow: PreferencesWindow?
    /// The error alert while it is open.
    private(set) var alert: MessageDialog?
    /// The consent question (location, MCP tool call, MCP server launch) while it is open.
    private(set) var consentDialog: MessageDialog?
    /// The rename dialog while it is open.
    private(set) var renameDialog: MessageDialog?
    /// The chat's settings panel while it is open.
    var settingsDialog: SettingsDialog?
    /// The sidebar's new-chat button and its presets menu; nil without a library.
    let newChatButton: NewChatButton?
    private(set) var aboutWindow: UnsafeMutablePointer<GtkWidget>?
    /// The Undo of the chat deleted last, while it is offered.
    private var undoToast: Toast?
    /// The window is destroyed: nothing more is shown in it.
    private var isClosed = false
    private let files: ChatFiles
    /// Delete Version in a message's menu, and its Undo.
    let versionDeletion: VersionDeletion
    /// Replies read aloud (one at a time, for the whole app).
    let readAloud: ReadAloud
    /// The alert saying reading aloud needs the speech service, while it is open.
    var speechAlert: MessageDialog?

    var transcript: TranscriptView { chatPage.transcript }
    var composer: ComposerBar { chatPage.composer }
    var header: HeaderTitle { chatPage.header }

    public init(application: UnsafeMutablePointer<GtkApplication>, viewModel: ChatViewModel, library: ChatLibrary?,
                preferences: AppPreferences? = nil, readAloud: ReadAloud = ReadAloud()) {
        self.viewModel = viewModel
        self.readAloud = readAloud
        self.library = library
        self.preferences = preferences
        window = adw_application_window_new(application)
        gtk_window_set_title(window.cast(), AppIdentity.name)
        gtk_widget_set_size_request(window, 360, 360)
        // The window manager's icon (X11 reads every size of it) waits until the first frame
        // is on screen: nothing in the window shows it.
        let shown = window
        AfterPaint.next(window) {
            g_object_ref(shown.raw)
            Task { @MainActor in
                gtk_window_set_icon_name(shown.cast(), AppIdentity.applicationID)
                g_object_unref(shown.raw)
            }
        }
        WindowState.restore(window, from: preferences?.settings, defaultWidth: library == nil ? 760 : 1000)

        chatPage = ChatPage(viewModel: viewModel, withLibrary: library != nil, readAloud: readAloud)
        sidebar = library.map(SidebarView.init)
        newChatButton = library.map(NewChatButton.init)
        let content: UnsafeMutablePointer<GtkWidget>
        mainMenuButton = Menus.main(withLibrary: library != nil)
        if let sidebar, let newChatButton {
            let header: UnsafeMutablePointer<GtkWidget> = adw_header_bar_new()
            adw_header_bar_set_title_widget(OpaquePointer(header), adw_window_title_new(AppIdentity.name, nil))
            adw_header_bar_pack_start(OpaquePointer(header), newChatButton.widget)
            adw_header_bar_pack_end(OpaquePointer(header), mainMenuButton)
            adw_header_bar_pack_end(OpaquePointer(header), sidebar.searchButton)
            let page: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
            gtk_widget_set_size_request(page, 260, -1)
            gtk_widget_set_hexpand(page, 0)
            gtk_box_append(page.cast(), header)
            gtk_box_append(page.cast(), sidebar.widget)
            let leaflet: UnsafeMutablePointer<GtkWidget> = adw_leaflet_new()
            adw_leaflet_set_can_navigate_back(OpaquePointer(leaflet), 1)
            adw_leaflet_set_can_unfold(OpaquePointer(leaflet), 1)
            adw_leaflet_append(OpaquePointer(leaflet), page)
            let separator = adw_leaflet_append(OpaquePointer(leaflet), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
            adw_leaflet_page_set_navigatable(separator, 0)
            adw_leaflet_append(OpaquePointer(leaflet), chatPage.widget)
            adw_leaflet_set_visible_child(OpaquePointer(leaflet), chatPage.widget)
            self.leaflet = leaflet
            sidebarPage = page
            sidebarHeader = header
            content = leaflet
        } else {
            leaflet = nil
            sidebarPage = nil
            sidebarHeader = nil
            adw_header_bar_pack_end(OpaquePointer(chatPage.headerBar), mainMenuButton)
            content = chatPage.widget
        }
        toasts = Toasts(child: content, keepingAbove: chatPage.composer.widget)
        // A toast on screen rises with a field that grows (a line more).
        chatPage.composer.input.onTextHeightChanged = { [toasts] in toasts.raiseAfterLayout() }
        adw_application_window_set_content(window.cast(), toasts.overlay)
        files = ChatFiles(window: window, library: library, viewModel: viewModel)
        versionDeletion = VersionDeletion(viewModel: viewModel, transcript: chatPage.transcript, toasts: toasts)
        serverOffer = preferences.map { preferences in
            FoundServerOffer(window: shown, settings: preferences.settings) { viewModel.defaultConnection.isLocal }
        }
        if let serverOffer {
            gtk_box_insert_child_after(chatPage.widget.cast(), serverOffer.banner.widget, chatPage.banner.widget)
            serverOffer.onUse = { [weak self] server in self?.use(server) }
        }

        installActions()
        Shortcuts.install(in: window)
        ShortcutsWindow.offer(on: window)
        viewModel.observe { [weak self] change in self?.apply(change) }
        library?.observe { [weak self] change in self?.apply(change) }
        files.onSaved = { [weak self] message in self?.toasts.show(message) }
        transcript.onCopied = { [weak self] in self?.toasts.show(tr("Copied"), seconds: 2) }
        header.menu.onClosed = { [weak self] in self?.composer.input.focus() }
        chatPage.runtimeSetup.onInstalled = { [weak self] in self?.toasts.show(tr("The local model is set up")) }
        if let leaflet {
            Signals.connect(leaflet.raw, "notify::folded") { [weak self] (_: UnsafeMutableRawPointer?) in self?.foldChanged() }
            Signals.connect(leaflet.raw, "notify::visible-child") { [weak self] (_: UnsafeMutableRawPointer?) in
                self?.updateActions()
                self?.toasts.raiseShown()
                self?.followPageWithFocus()
            }
            foldChanged()
        }
        Signals.connect(window.raw, "notify::is-active") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, gtk_window_is_active(window.cast()) != 0 else { return }
            ReplyNotification.withdraw(from: window)
        }
        followReadAloud()
        // The set-up is this window's only; the view models, which outlive the window, are
        // followed no more (a change made as it closes would reach widgets being disposed).
        Signals.connect(window.raw, "destroy") { [weak self] in
            self?.isClosed = true
            self?.chatPage.runtimeSetup.cancel()
        }
        Signals.connectReturning(window.raw, "close-request") { [weak self] in
            self?.saveWindowState()
            return false
        }
        refreshLocalModels()
        updateActions()
        composer.input.focus()
    }

    /// Remembers the window's size for the next start.
    func saveWindowState() {
        WindowState.save(window, to: preferences?.settings)
    }

    public func present() {
        gtk_window_present(window.cast())
    }

    // MARK: Following the view models

    private func apply(_ change: ChatViewModel.Change) {
        guard !isClosed else { return }
        chatPage.apply(change)
        switch change {
        case .error:
            if viewModel.status.showError { showAlert() }
        case .consentRequested:
            showConsentDialog()
        case .consentSettled:
            // Answered otherwise (Stop, another chat): the question is gone.
            consentDialog?.withdraw()
            consentDialog = nil
        case .replyLeft(let title):
            // TRANSLATORS: a toast; %s is the title of the chat whose reply was stopped by opening another.
            toasts.show(tr("Reply in “%s” stopped", title))
        case .replyFinished(let index):
            chatPage.announcer.announce(viewModel.conversation[index])
            if gtk_window_is_active(window.cast()) == 0 { ReplyNotification.send(for: viewModel.conversation[index], in: viewModel.chat?.id, from: window) }
        case .composer, .files:
            updateActions()
            // File chips or the editing notice may have changed the composer's height.
            toasts.raiseAfterLayout()
        case .reloaded, .messagesInserted, .messagesRemoved, .messagesUnloaded:
            updateActions()
        case .status:
            // The server's models may have arrived for the settings panel's Model row.
            settingsDialog?.form.offer(modelOptions, choosing: settingsDialog?.form.chosenModel)
        case .messageChanged, .focused, .knowledge, .settings, .versionShown:
            break
        }
    }

    private func apply(_ change: ChatLibrary.Change) {
        guard !isClosed else { return }
        switch change {
        case .undo: showUndo()
        case .presets:
            newChatButton?.refresh()
            preferencesWindow?.presets?.reload()
        case .presetUsed: newChatButton?.refreshTooltip()
        case .selection:
            chatPage.header.refresh()
            updateActions()
        case .chats, .searchResults: break
        }
    }

    /// The actions that make sense now: Regenerate needs a reply, the chat's commands a saved chat.
    private func updateActions() {
        let raw = window.raw
        Actions.setEnabled(viewModel.canRegenerate, "regenerate", in: raw)
        let saved = viewModel.chat != nil
        for name in ["rename-chat", "delete-chat", "export-markdown", "export-json"] { Actions.setEnabled(saved, name, in: raw) }
        Actions.setEnabled(!viewModel.conversation.messages.isEmpty, "copy-chat", in: raw)
    }

    /// After a delete: the chat can come back for a few seconds.
    private func showUndo() {
        guard let library else { return }
        undoToast?.dismiss()
        undoToast = nil
        guard let deleted = library.recentlyDeleted else { return }
        let id = deleted.id
        undoToast = toasts.show(tr("“%s” deleted", deleted.title), button: tr("_Undo"),
                                onButton: { library.undoDelete() },
                                onDismissed: { [weak self] in
                                    // A later delete has an Undo of its own.
                                    guard library.recentlyDeleted?.id == id else { return }
                                    library.forgetDeleted()
                                    self?.undoToast = nil
                                })
    }

    private func showAlert() {
        let heading = viewModel.status.errorHeading ?? ErrorAlert.heading
        if let alert {
            alert.heading = heading
            alert.body = viewModel.status.errorMessage
            return
        }
        alert = ErrorAlert.show(over: window, heading: heading, message: viewModel.status.errorMessage) { [weak self] in
            guard let self else { return }
            alert = nil
            viewModel.status.dismissError()
            present()
            composer.input.focus()
        }
    }

    /// Shows the question waiting in the consent broker — location, an MCP tool call or an
    /// MCP server's launch — over our topmost window: Preferences when it is open (it is
    /// modal, and a pasted server's launch is asked from there), else this window.
    private func showConsentDialog() {
        guard consentDialog == nil, let question = viewModel.status.consent.current else { return }
        let parent = preferencesWindow?.window ?? window
        let answered: @MainActor (Consent) -> Void = { [weak self] answer in
            guard let self else { return }
            consentDialog = nil
            viewModel.status.consent.answer(answer)
            gtk_window_present((preferencesWindow?.window ?? window).cast())
        }
        consentDialog = switch question {
        case .location:
            LocationConsentDialog.show(over: parent, modelName: viewModel.modelName, answered: answered)
        case .toolCall(let call):
            ToolCallConsentDialog.show(over: parent, modelName: viewModel.modelName, question: call, answered: answered)
        case .serverLaunch(let config):
            ServerLaunchConsentDialog.show(over: parent, config: config, answered: answered)
        }
    }

    // MARK: Actions

    private func installActions() {
        let target = window.raw
        Actions.add("stop", to: target) { [weak self] in
            guard let self else { return }
            if viewModel.editingMessageID != nil { viewModel.cancelEdit() } else { viewModel.stop() }
        }
        Actions.add("regenerate", to: target) { [weak self] in self?.viewModel.regenerate() }
        Actions.add("copy-chat", to: target) { [weak self] in self?.copyChat() }
        Actions.add("read-aloud", to: target) { [weak self] in self?.transcript.readFocusedReply() }
        Actions.add("attach", to: target) { [weak self] in self?.composer.chooseFiles() }
        Actions.add("add-folder", to: target) { [weak self] in self?.chooseFolder() }
        Actions.add("preferences", to: target) { [weak self] in self?.showPreferences() }
        Actions.setEnabled(preferences != nil, "preferences", in: target)
        Actions.add("about", to: target) { [weak self] in self?.showAbout() }
        Actions.add("show-chats", to: target) { [weak self] in self?.showChats() }
        Actions.add("choose-model", to: target) { [weak self] in
            self?.showChat()
            self?.header.openMenu()
        }
        installSettingsActions()
        guard let library else { return }
        Actions.add("search", to: target) { [weak self] in
            guard let self else { return }
            if isFolded { showChats() }
            sidebar?.toggleSearch()
        }
        Actions.add("rename-chat", to: target) { [weak self] in self?.renameChat() }
        Actions.add("delete-chat", to: target) { [weak self] in
            if let id = self?.viewModel.chat?.id { library.delete(id) }
        }
        Actions.add("export-markdown", to: target) { [weak self] in self?.files.exportChat(markdown: true) }
        Actions.add("export-json", to: target) { [weak self] in self?.files.exportChat(markdown: false) }
        Actions.add("export-all", to: target) { [weak self] in self?.files.exportAll() }
        Actions.add("import", to: target) { [weak self] in self?.files.importChats() }
        sidebar?.onChatChosen = { [weak self] in self?.showChat() }
        // The search that had the focus is gone: it goes on to the message field, not to
        // whatever GTK finds first (a chat row's Delete button).
        sidebar?.onSearchResultOpened = { [weak self] in self?.composer.input.focus() }
        sidebar?.onFocusedRowRemoved = { [weak self] in self?.focusPageShown() }
        transcript.onFocusedRowRemoved = { [weak self] in self?.focusPageShown() }
    }

    /// Asks for a folder for the chat to ask about.
    private func chooseFolder() {
        let knowledge = viewModel.knowledge
        FileChooser.choose(over: window, title: tr("Ask About a Folder"), saving: nil, folder: true) { url in
            if let url { knowledge.add(url) }
        }
    }

    /// About Agent; the one already open comes to the front.
    private func showAbout() {
        if let aboutWindow {
            gtk_window_present(aboutWindow.cast())
            return
        }
        let about = AboutWindow.show(over: window, connection: viewModel.connection)
        aboutWindow = about
        Signals.connect(about.raw, "destroy") { [weak self] in self?.aboutWindow = nil }
    }

    private func renameChat() {
        guard let library, let chat = viewModel.chat, renameDialog == nil else { return }
        renameDialog = RenameChatDialog.show(over: window, title: chat.title) { [weak self] title in
            self?.renameDialog = nil
            library.rename(chat.id, to: title)
        }
        if let renameDialog {
            Signals.connect(renameDialog.window.raw, "destroy") { [weak self] in self?.renameDialog = nil }
        }
    }

    /// Ctrl+Shift+C: the whole chat as Markdown on the clipboard (all of it, from the store,
    /// when it is saved; what is on screen otherwise).
    private func copyChat() {
        let markdown: String
        do {
            markdown = try viewModel.chat.flatMap { try library?.markdown(of: $0.id) }
                ?? ChatArchive.markdown(ChatArchive.Chat(summary: ChatSummary(title: AppIdentity.name), messages: viewModel.conversation.messages))
        } catch {
            viewModel.status.report(tr("Could not copy the chat: %s", ChatError.describe(error)),
                                    heading: tr("Could Not Copy Chat"))
            return
        }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), markdown)
        toasts.show(tr("Chat copied as Markdown"), seconds: 2)
    }
}
