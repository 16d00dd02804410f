import AgentCore
import CGtk
import FoundationEssentials

/// The main window: the chat list beside the conversation, a header bar with the model in
/// use, the composer, and the dialogs (error alert, location consent, rename). It renders
/// the view models and forwards the user's intents to them; every command is a `win.`
/// action, so buttons, menu items and shortcuts share one path.
@MainActor
public final class ChatWindow {
    public let window: UnsafeMutablePointer<GtkWidget>
    let viewModel: ChatViewModel
    let library: ChatLibrary?
    let transcript: TranscriptView
    let composer: ComposerBar
    let header: HeaderTitle
    let sidebar: SidebarView?
    let toast = Toast()
    let preferences: AppPreferences?
    /// The Preferences window while it is open.
    private(set) var preferencesWindow: PreferencesWindow?
    /// The alert on screen, when GTK exposes it as a window (GTK 4.8).
    private(set) var alertWindow: UnsafeMutablePointer<GtkWindow>?
    private(set) var alertShowing = false
    /// The location consent dialog on screen, when GTK exposes it as a window (GTK 4.8).
    private(set) var consentWindow: UnsafeMutablePointer<GtkWindow>?
    private(set) var consentShowing = false

    public init(application: UnsafeMutablePointer<GtkApplication>, viewModel: ChatViewModel, library: ChatLibrary?,
                preferences: AppPreferences? = nil) {
        self.viewModel = viewModel
        self.library = library
        self.preferences = preferences
        window = gtk_application_window_new(application)
        gtk_window_set_title(window.cast(), AppIdentity.name)
        if let size = preferences?.settings.windowSize {
            gtk_window_set_default_size(window.cast(), Int32(size.width), Int32(size.height))
        } else {
            gtk_window_set_default_size(window.cast(), library == nil ? 760 : 1000, 700)
        }
        if preferences?.settings.windowMaximized == true { gtk_window_maximize(window.cast()) }
        gtk_window_set_icon_name(window.cast(), AppIdentity.applicationID)

        header = HeaderTitle(viewModel: viewModel)
        transcript = TranscriptView(viewModel: viewModel)
        composer = ComposerBar(viewModel: viewModel)
        sidebar = library.map(SidebarView.init)

        let headerBar: UnsafeMutablePointer<GtkWidget> = gtk_header_bar_new()
        gtk_header_bar_set_title_widget(headerBar.opaque, header.widget)
        if library != nil {
            gtk_header_bar_pack_start(headerBar.opaque, Self.button(icon: "list-add-symbolic", action: "win.new-chat",
                                                                    tooltip: "New Chat (Ctrl+N)", name: "New chat"))
            gtk_header_bar_pack_start(headerBar.opaque, Self.button(icon: "system-search-symbolic", action: "win.search",
                                                                    tooltip: "Search (Ctrl+F)", name: "Search"))
        }
        gtk_header_bar_pack_end(headerBar.opaque, Self.menuButton(withLibrary: library != nil))
        gtk_window_set_titlebar(window.cast(), headerBar)

        let conversation: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(conversation.cast(), transcript.widget)
        gtk_box_append(conversation.cast(), composer.widget)
        let overlay: UnsafeMutablePointer<GtkWidget> = gtk_overlay_new()
        gtk_overlay_set_child(overlay.opaque, conversation)
        gtk_overlay_add_overlay(overlay.opaque, toast.widget)
        if let sidebar {
            let paned: UnsafeMutablePointer<GtkWidget> = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)
            gtk_paned_set_start_child(paned.opaque, sidebar.widget)
            gtk_paned_set_end_child(paned.opaque, overlay)
            gtk_paned_set_position(paned.opaque, 260)
            gtk_paned_set_shrink_start_child(paned.opaque, 0)
            gtk_paned_set_resize_start_child(paned.opaque, 0)
            gtk_window_set_child(window.cast(), paned)
        } else {
            gtk_window_set_child(window.cast(), overlay)
        }

        installActions()
        // Escape stops (or leaves an edit) only when the focused widget has no use for it:
        // the search entry closes its search, a menu closes itself.
        let escape: OpaquePointer = gtk_shortcut_controller_new()
        gtk_event_controller_set_propagation_phase(escape, GTK_PHASE_BUBBLE)
        gtk_shortcut_controller_add_shortcut(escape, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                      gtk_named_action_new("win.stop")))
        gtk_widget_add_controller(window, escape)
        ShortcutsWindow.attach(to: window)
        viewModel.observe { [weak self] change in self?.apply(change) }
        library?.observe { [weak self] change in
            if change == .undo { self?.showUndo() }
        }
        transcript.onCopied = { [weak self] in self?.toast.show("Copied", seconds: 2) }
        Signals.connect(window.raw, "notify::is-active") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, gtk_window_is_active(window.cast()) != 0 else { return }
            ReplyNotification.withdraw(from: window)
        }
        Signals.connectReturning(window.raw, "close-request") { [weak self] in
            self?.saveWindowState()
            return false
        }
        composer.input.focus()
    }

    /// Remembers the window's size for the next start (the unmaximized size when maximized).
    func saveWindowState() {
        guard let settings = preferences?.settings else { return }
        var width: Int32 = 0
        var height: Int32 = 0
        gtk_window_get_default_size(window.cast(), &width, &height)
        if width > 0, height > 0 { settings.windowSize = (Int(width), Int(height)) }
        settings.windowMaximized = gtk_window_is_maximized(window.cast()) != 0
    }

    /// Opens Preferences (Ctrl+,); closing it applies what changed to the chat.
    func showPreferences() {
        guard let preferences else { return }
        if let preferencesWindow {
            preferencesWindow.present()
            return
        }
        let opened = PreferencesWindow(parent: window, settings: preferences.settings, secrets: preferences.secrets) { [weak self] changed in
            guard let self else { return }
            preferencesWindow = nil
            if changed { applyPreferences() }
        }
        preferencesWindow = opened
        opened.present()
    }

    private func applyPreferences() {
        guard let preferences else { return }
        viewModel.contextBudget = preferences.settings.contextBudget
        viewModel.defaultSystemPrompt = preferences.settings.systemPrompt
        viewModel.use(preferences.makeConnection())
    }

    public func present() {
        gtk_window_present(window.cast())
    }

    private func apply(_ change: ChatViewModel.Change) {
        transcript.apply(change)
        switch change {
        case .composer:
            composer.refresh()
            if viewModel.editingMessageID != nil { composer.input.focus() }
        case .status:
            header.refresh()
        case .error:
            if viewModel.showError { showAlert() }
        case .messageInserted(let index):
            header.refresh()
            if viewModel.conversation[index].role == .user { composer.input.focus() }
        case .consentRequested:
            showConsentDialog()
        case .reloaded:
            header.refresh()
            composer.refresh()
        case .replyFinished(let index):
            if gtk_window_is_active(window.cast()) == 0 { ReplyNotification.send(for: viewModel.conversation[index], from: window) }
        case .messageChanged, .messageRemoved:
            break
        }
    }

    /// After a delete: the chat can come back for a few seconds.
    private func showUndo() {
        guard let library else { return }
        if let deleted = library.recentlyDeleted {
            toast.show("“\(deleted.title)” deleted", actionLabel: "_Undo", seconds: 6,
                       action: { library.undoDelete() }, dismissed: { library.forgetDeleted() })
        } else if toast.isShown {
            toast.hide()
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
            composer.input.focus()
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

    // MARK: Actions

    private func installActions() {
        let target = window.raw
        Actions.add("stop", to: target) { [weak self] in
            guard let self else { return }
            if viewModel.editingMessageID != nil { viewModel.cancelEdit() } else { viewModel.stop() }
        }
        Actions.add("regenerate", to: target) { [weak self] in self?.viewModel.regenerate() }
        Actions.add("copy-chat", to: target) { [weak self] in self?.copyChat() }
        if preferences != nil {
            Actions.add("preferences", to: target) { [weak self] in self?.showPreferences() }
        }
        guard let library else { return }
        Actions.add("new-chat", to: target) { [weak self] in
            library.newChat()
            if let self { composer.input.focus() }
        }
        Actions.add("search", to: target) { [weak self] in self?.sidebar?.toggleSearch() }
        Actions.add("rename-chat", to: target) { [weak self] in self?.renameChat() }
        Actions.add("delete-chat", to: target) { [weak self] in
            if let id = self?.viewModel.chat?.id { library.delete(id) }
        }
        Actions.add("export-markdown", to: target) { [weak self] in self?.exportChat(markdown: true) }
        Actions.add("export-json", to: target) { [weak self] in self?.exportChat(markdown: false) }
        Actions.add("export-all", to: target) { [weak self] in self?.exportAll() }
        Actions.add("import", to: target) { [weak self] in self?.importChats() }
    }

    private func renameChat() {
        guard let library, let chat = viewModel.chat else { return }
        RenameChatDialog.show(over: window, title: chat.title) { title in library.rename(chat.id, to: title) }
    }

    /// Ctrl+Shift+C: the whole chat as Markdown on the clipboard.
    private func copyChat() {
        let markdown = viewModel.chat.flatMap { library?.markdown(of: $0.id) }
            ?? ChatArchive.markdown(ChatArchive.Chat(summary: ChatSummary(title: AppIdentity.name), messages: viewModel.conversation.messages))
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), markdown)
        toast.show("Chat copied as Markdown", seconds: 2)
    }

    private func exportChat(markdown: Bool) {
        guard let library, let chat = viewModel.chat else { return }
        let text = markdown ? library.markdown(of: chat.id) : library.json(of: chat.id)
        guard let text else { return }
        save(text, suggestedName: Self.fileName(for: chat.title) + (markdown ? ".md" : ".json"), title: "Export Chat")
    }

    private func exportAll() {
        guard let library else { return }
        do {
            save(try library.jsonOfAll(), suggestedName: "agent-chats.json", title: "Export All Chats")
        } catch {
            showProblem(error)
        }
    }

    private func importChats() {
        FileChooser.choose(over: window, title: "Import Chats", saving: nil) { [weak self] url in
            guard let self, let url, let library else { return }
            do {
                try library.importJSON(String(decoding: try Data(contentsOf: url), as: UTF8.self))
            } catch {
                showProblem(error)
            }
        }
    }

    private func save(_ text: String, suggestedName: String, title: String) {
        FileChooser.choose(over: window, title: title, saving: suggestedName) { [weak self] url in
            guard let url else { return }
            do {
                try Data(text.utf8).write(to: url, options: .atomic)
            } catch {
                self?.showProblem(error)
            }
        }
    }

    private func showProblem(_ error: any Error) {
        ErrorAlert.show(over: window, message: ChatError.describe(error)) {}
    }

    static func fileName(for title: String) -> String {
        let cleaned = title.map { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" ? $0 : "_" }
        let name = String(cleaned).trimmedSpaces
        return name.isEmpty ? "chat" : String(name.prefix(60))
    }

    private static func button(icon: String, action: String, tooltip: String, name: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name(icon)
        gtk_actionable_set_action_name(OpaquePointer(button), action)
        gtk_widget_set_tooltip_text(button, tooltip)
        agent_accessible_set_label(button, name)
        return button
    }

    private static func model(_ menu: OpaquePointer?) -> UnsafeMutablePointer<GMenuModel>? {
        menu.map { UnsafeMutablePointer<GMenuModel>($0) }
    }

    private static func menuButton(withLibrary: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()
        let chatSection = g_menu_new()
        g_menu_append(chatSection, "Regenerate Reply", "win.regenerate")
        g_menu_append(chatSection, "Copy Chat as Markdown", "win.copy-chat")
        if withLibrary {
            g_menu_append(chatSection, "Rename Chat…", "win.rename-chat")
            g_menu_append(chatSection, "Delete Chat", "win.delete-chat")
        }
        g_menu_append_section(menu, nil, model(chatSection))
        if withLibrary {
            let files = g_menu_new()
            g_menu_append(files, "Export Chat as Markdown…", "win.export-markdown")
            g_menu_append(files, "Export Chat as JSON…", "win.export-json")
            g_menu_append(files, "Export All Chats…", "win.export-all")
            g_menu_append(files, "Import Chats…", "win.import")
            g_menu_append_section(menu, nil, model(files))
            g_object_unref(UnsafeMutableRawPointer(files))
        }
        let app = g_menu_new()
        g_menu_append(app, "Preferences", "win.preferences")
        g_menu_append(app, "Keyboard Shortcuts", "win.show-help-overlay")
        g_menu_append(app, "Quit", "app.quit")
        g_menu_append_section(menu, nil, model(app))
        let button: UnsafeMutablePointer<GtkWidget> = gtk_menu_button_new()
        gtk_menu_button_set_icon_name(button.opaque, "open-menu-symbolic")
        gtk_menu_button_set_menu_model(button.opaque, model(menu))
        gtk_widget_set_tooltip_text(button, "Main Menu")
        agent_accessible_set_label(button, "Main menu")
        g_object_unref(UnsafeMutableRawPointer(chatSection))
        g_object_unref(UnsafeMutableRawPointer(app))
        g_object_unref(UnsafeMutableRawPointer(menu))
        return button
    }
}
