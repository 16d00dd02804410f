import AgentCore
import CGtk
import FoundationEssentials

/// One message in the transcript, its chrome and its actions: a bubble on the right for
/// the user, on the left for a reply, under its `MessageHeading` (model, time); under it the
/// message's state ("Stopped", "Cut off"), its versions (`‹ 2/3 ›`), its token count, and
/// Copy / Edit / Regenerate, and Stop Reading while a reply is read aloud; a right-click menu.
/// What the bubble holds is a `ReplyBody` or a `UserBody`. Rows are recycled by the list view:
/// `bind` gives a row another message.
@MainActor
final class MessageRow {
    let root: UnsafeMutablePointer<GtkWidget>
    /// The model and the time, above the bubble.
    let heading = MessageHeading()
    let bubble: UnsafeMutablePointer<GtkWidget>
    /// Puts the bubble on the right (the user's) or the left, as wide as its text.
    private let bubbleSide: UnsafeMutablePointer<GtkWidget>
    private let footer: UnsafeMutablePointer<GtkWidget>
    let stateLabel: UnsafeMutablePointer<GtkWidget>
    /// Tokens and tokens per second of a finished reply.
    let usageLabel: UnsafeMutablePointer<GtkWidget>
    let copyButton: UnsafeMutablePointer<GtkWidget>
    let editButton: UnsafeMutablePointer<GtkWidget>
    let regenerateButton: UnsafeMutablePointer<GtkWidget>
    /// Shown while the reply is read aloud.
    let stopReadingButton: UnsafeMutablePointer<GtkWidget>
    /// `‹ 2/3 ›` when the message has other versions.
    let versions = VersionSwitcher()
    let reply: ReplyBody
    let user: UserBody
    /// The files a reply's passages came from.
    let sources: SourceLinks
    let menu: MessageMenu
    private(set) var messageID: UUID?
    /// The message the widgets show and its text, kept while unbound (see `bind`). A
    /// message's text only grows while it streams; any other change is a new message.
    private var shownID: UUID?
    private var shownText = ""
    private var shownState: MessageState?
    private var shownRole: Role?
    /// Whether the message can be read aloud: a reply with words, not being written.
    private var readable = false
    /// The reply's words while it is read aloud, the one spoken highlighted.
    private(set) var spoken: SpokenReply?
    private var controls = Controls()
    /// The row's actions (`row.copy`, …), switched on and off with `controls`.
    private var actionGroup: UnsafeMutableRawPointer?

    /// What the row's controls offer now (the transcript works it out from the view model).
    struct Controls: Equatable {
        /// The Regenerate button: the chat's last reply, when it can be asked for again.
        var regenerateButton = false
        /// Regenerate Reply in the menu: any reply that can be asked for again.
        var canRegenerate = false
        /// Edit on a user's message: not while a reply is being written.
        var canEdit = false
        /// Where the message is among its versions; nil when it has no other.
        var version: VersionSwitcher.Place?
        var canShowPrevious = false
        var canShowNext = false
        var canDeleteVersion = false
    }

    /// A part of the row that can hold the keyboard focus.
    enum FocusTarget {
        case previousVersion, nextVersion
        /// Anywhere else in the row (its text, its other buttons).
        case row
    }

    /// What the row's buttons ask for.
    struct Handlers {
        var copy: @MainActor (UUID, UnsafeMutablePointer<GtkWidget>) -> Void
        var copyText: @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void
        var edit: @MainActor (UUID) -> Void
        var regenerate: @MainActor (UUID) -> Void
        /// Show the version `offset` away (-1: the one before).
        var showVersion: @MainActor (UUID, Int) -> Void = { _, _ in }
        /// Delete this version (with Undo).
        var deleteVersion: @MainActor (UUID) -> Void = { _ in }
        var openFile: @MainActor (AttachedFile, UnsafeMutablePointer<GtkWidget>) -> Void
        var openSource: @MainActor (KnowledgeSource, UnsafeMutablePointer<GtkWidget>) -> Void
        /// The user opened (true) or closed a reply's Thinking section.
        var thinkingToggled: @MainActor (UUID, Bool) -> Void = { _, _ in }
        /// Read Aloud, or Stop Reading when this reply is being read.
        var readAloud: @MainActor (UUID) -> Void = { _ in }
    }

    init(actions: Handlers) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 3)
        GtkText.addClasses(root, "message-row")

        bubble = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        GtkText.addClasses(bubble, "bubble")
        reply = ReplyBody(copyCode: actions.copyText)
        user = UserBody(openFile: actions.openFile)
        sources = SourceLinks(open: actions.openSource)
        gtk_box_append(bubble.cast(), reply.widget)
        gtk_box_append(bubble.cast(), user.widget)
        menu = MessageMenu(attachedTo: bubble)

        footer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        stateLabel = gtk_label_new(nil)
        GtkText.addClasses(stateLabel, "message-state")
        usageLabel = gtk_label_new(nil)
        GtkText.addClasses(usageLabel, "message-usage", "dim-label")
        gtk_widget_set_visible(usageLabel, 0)
        copyButton = Self.footerButton(icon: "edit-copy-symbolic", tooltip: tr("Copy Reply"), name: tr("Copy"))
        editButton = Self.footerButton(icon: "document-edit-symbolic", tooltip: tr("Edit and Send Again"), name: tr("Edit"))
        // As `Controls()` has it: `show(_:)` changes only what differs from the controls shown.
        gtk_widget_set_sensitive(editButton, 0)
        regenerateButton = Self.footerButton(icon: "view-refresh-symbolic", tooltip: tr("Regenerate Reply"), name: tr("Regenerate"))
        stopReadingButton = Self.footerButton(icon: "media-playback-stop-symbolic", tooltip: tr("Stop Reading"), name: tr("Stop Reading"))
        gtk_widget_set_visible(stopReadingButton, 0)
        gtk_actionable_set_action_name(OpaquePointer(stopReadingButton), "row.read-aloud")
        for child in [stateLabel, versions.widget, editButton, copyButton, regenerateButton, stopReadingButton, usageLabel] {
            gtk_box_append(footer.cast(), child)
        }

        bubbleSide = agent_aligned_box_new(bubble)
        gtk_box_append(root.cast(), heading.widget)
        gtk_box_append(root.cast(), bubbleSide)
        gtk_box_append(root.cast(), sources.widget)
        gtk_box_append(root.cast(), footer)

        let button = copyButton
        Signals.connect(copyButton.raw, "clicked") { [weak self] in
            guard let id = self?.messageID else { return }
            actions.copy(id, button)
        }
        Signals.connect(editButton.raw, "clicked") { [weak self] in
            guard let id = self?.messageID else { return }
            actions.edit(id)
        }
        Signals.connect(regenerateButton.raw, "clicked") { [weak self] in
            guard let id = self?.messageID else { return }
            actions.regenerate(id)
        }
        reply.onThinkingToggled = { [weak self] expanded in
            guard let id = self?.messageID else { return }
            actions.thinkingToggled(id, expanded)
        }
        installMenu(actions)
    }

    private static func footerButton(icon: String, tooltip: String, name: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name(icon)
        GtkText.addClasses(button, "flat", "copy-button")
        agent_widget_set_tooltip_text(button, tooltip)
        agent_accessible_set_label(button, name)
        return button
    }

    /// The row's actions (`row.copy`, …) and the right click that opens its menu.
    private func installMenu(_ actions: Handlers) {
        let rowActions: UnsafeMutablePointer<GSimpleActionGroup> = g_simple_action_group_new()
        let group = UnsafeMutableRawPointer(rowActions)
        Actions.add("copy", to: group) { [weak self] in
            guard let self, let id = messageID else { return }
            actions.copy(id, bubble)
        }
        Actions.add("edit", to: group) { [weak self] in
            guard let id = self?.messageID else { return }
            actions.edit(id)
        }
        Actions.add("regenerate", to: group) { [weak self] in
            guard let id = self?.messageID else { return }
            actions.regenerate(id)
        }
        for (name, offset) in [("previous-version", -1), ("next-version", 1)] {
            Actions.add(name, to: group) { [weak self] in
                guard let id = self?.messageID else { return }
                actions.showVersion(id, offset)
            }
        }
        Actions.add("delete-version", to: group) { [weak self] in
            guard let id = self?.messageID else { return }
            actions.deleteVersion(id)
        }
        Actions.add("read-aloud", to: group) { [weak self] in
            guard let id = self?.messageID else { return }
            actions.readAloud(id)
        }
        gtk_widget_insert_action_group(root, "row", OpaquePointer(rowActions))
        // The root widget holds the group from here on, for the row's whole life.
        g_object_unref(group)
        actionGroup = group
        enableActions()
        MessageMenuTriggers.install(on: bubble, row: root, canOpen: { [weak self] in
            self.map { $0.messageID != nil && !$0.menu.isOpen } ?? false
        }, open: { [weak self] x, y in self?.openMenu(x: x, y: y) })
    }

    func openMenu(x: Double, y: Double) {
        guard messageID != nil else { return }
        let regenerate: MessageMenu.Regenerate = controls.regenerateButton ? .lastReply : controls.canRegenerate ? .thisReply : .none
        menu.open(x: x, y: y, isUser: shownRole == .user, regenerate: regenerate,
                  canDeleteVersion: controls.canDeleteVersion, isReading: spoken != nil)
    }

    /// Shows what the row's controls offer now; cheap when nothing changed.
    func show(_ newControls: Controls) {
        guard newControls != controls else { return }
        controls = newControls
        gtk_widget_set_visible(regenerateButton, controls.regenerateButton ? 1 : 0)
        gtk_widget_set_sensitive(editButton, controls.canEdit ? 1 : 0)
        versions.show(controls.version)
        enableActions()
    }

    private func enableActions() {
        guard let actionGroup else { return }
        Actions.setEnabled(controls.canRegenerate, "regenerate", in: actionGroup)
        Actions.setEnabled(controls.canEdit, "edit", in: actionGroup)
        Actions.setEnabled(controls.canShowPrevious, "previous-version", in: actionGroup)
        Actions.setEnabled(controls.canShowNext, "next-version", in: actionGroup)
        Actions.setEnabled(controls.canDeleteVersion, "delete-version", in: actionGroup)
        Actions.setEnabled(readable || spoken != nil, "read-aloud", in: actionGroup)
    }

    /// The part of the row holding the keyboard focus; nil when it is elsewhere.
    var focusedPart: FocusTarget? {
        if gtk_widget_has_focus(versions.previousButton) != 0 { return .previousVersion }
        if gtk_widget_has_focus(versions.nextButton) != 0 { return .nextVersion }
        return FocusRescue.holdsFocus(rowOf: root) ? .row : nil
    }

    /// Gives `target` the keyboard focus. A switcher button that is off (at an end) leaves it
    /// to the other one, then to the row's first control: GTK 4.8 focuses a list item that is
    /// neither selectable nor activatable only through what it holds.
    func focus(_ target: FocusTarget) {
        let (previous, next) = (versions.previousButton, versions.nextButton)
        let buttons: [UnsafeMutablePointer<GtkWidget>] = switch target {
        case .previousVersion: [previous, next]
        case .nextVersion: [next, previous]
        case .row: []
        }
        for button in buttons where gtk_widget_is_sensitive(button) != 0 && gtk_widget_get_mapped(button) != 0 {
            if gtk_widget_grab_focus(button) != 0 { return }
        }
        gtk_widget_child_focus(root, GTK_DIR_TAB_FORWARD)
    }

    /// The text the bubble shows (what a screen reader reads).
    var displayedText: String {
        shownRole == .user ? user.displayedText : reply.displayedText
    }

    /// Marks the message a search opened the chat at.
    func showFound(_ found: Bool) {
        if found { gtk_widget_add_css_class(bubble, "found") } else { gtk_widget_remove_css_class(bubble, "found") }
    }

    /// Shows `message`, its Thinking section open when the user left it open.
    ///
    /// GTK 4.8's factory unbinds and binds a row again whenever its position changes (a page
    /// of earlier messages loaded above it): a row bound again to the message it still
    /// shows, unchanged, keeps its widgets instead of building them anew. Returns false when
    /// a flood of text is still being taken on (update again next frame).
    @discardableResult
    func bind(_ message: ChatMessage, controls: Controls = Controls(), thinkingExpanded: Bool = false, awaitingAnswer: Bool = false) -> Bool {
        messageID = message.id
        if shownID != message.id || shownText != message.text {
            heading.reset()
            shownState = nil
            reply.reset()
            user.reset()
        }
        reply.thinkingExpanded = thinkingExpanded
        if shownRole != message.role { applyRole(message.role) }
        show(controls)
        return update(message, awaitingAnswer: awaitingAnswer)
    }

    /// The row shows no message for now (its menu closed: the row may be going); what it
    /// showed stays until it is bound again.
    func unbind() {
        menu.close()
        showReading(nil)
        messageID = nil
    }

    // MARK: Reading aloud

    /// The reply's words as shown now, to read aloud.
    func spokenReply() -> SpokenReply {
        SpokenReply(showing: reply.textWidgets)
    }

    /// Shows that the reply is read aloud, `word` of `text` highlighted (when the row shows the
    /// same words), or that it is not (nil); where the word is.
    @discardableResult
    func showReading(_ reading: (text: SpokenText, word: SpokenText.Word?)?) -> SpokenReply.Place? {
        guard let reading else {
            spoken?.clear()
            if spoken != nil {
                spoken = nil
                readingChanged()
            }
            return nil
        }
        if spoken == nil {
            spoken = spokenReply()
            readingChanged()
        }
        guard let spoken, spoken.text == reading.text else { return nil }
        return spoken.highlight(reading.word)
    }

    private func readingChanged() {
        gtk_widget_set_visible(stopReadingButton, spoken == nil ? 0 : 1)
        enableActions()
    }

    /// Shows the message's current text and state; cheap when little changed. Returns false
    /// when a flood of text is still being taken on (update again next frame).
    /// `awaitingAnswer`: a reply whose running tool waits for the user's answer.
    @discardableResult
    func update(_ message: ChatMessage, awaitingAnswer: Bool = false) -> Bool {
        shownID = message.id
        shownText = message.text
        heading.show(message)
        if message.state != shownState {
            shownState = message.state
            showState(message)
        }
        let canRead = message.role == .assistant && message.state != .streaming && message.state != .sending
            && !message.text.isEmpty
        if canRead != readable {
            readable = canRead
            enableActions()
        }
        guard message.role == .assistant else {
            user.show(message)
            return true
        }
        sources.show(message.sources)
        return reply.show(message, awaitingAnswer: awaitingAnswer)
    }

    private func applyRole(_ role: Role) {
        shownRole = role
        let isUser = role == .user
        agent_aligned_box_set_end(bubbleSide, isUser ? 1 : 0)
        heading.showRole(isUser: isUser)
        gtk_widget_set_halign(footer, isUser ? GTK_ALIGN_END : GTK_ALIGN_START)
        gtk_widget_set_visible(copyButton, isUser ? 0 : 1)
        gtk_widget_set_visible(editButton, isUser ? 1 : 0)
        gtk_widget_set_visible(regenerateButton, controls.regenerateButton ? 1 : 0)
        gtk_widget_set_visible(reply.widget, isUser ? 0 : 1)
        gtk_widget_set_visible(user.widget, isUser ? 1 : 0)
        if isUser { sources.show([]) }
        gtk_widget_remove_css_class(bubble, isUser ? "assistant" : "user")
        gtk_widget_add_css_class(bubble, isUser ? "user" : "assistant")
    }

    private func showState(_ message: ChatMessage) {
        let text: String? = switch message.state {
        case .cutOff: tr("Cut off")
        case .stopped: tr("Stopped")
        case .failed: message.role == .user ? tr("Not answered") : tr("Failed")
        case .sending: message.role == .user ? tr("Sending…") : nil
        case .streaming, .done: nil
        }
        gtk_label_set_text(stateLabel.opaque, text ?? "")
        gtk_widget_set_visible(stateLabel, text == nil ? 0 : 1)
        // A failure reads in the error colour; a stop or a cut-off, which keep what came, in the warning's.
        if message.state == .failed {
            gtk_widget_add_css_class(stateLabel, "failed")
        } else {
            gtk_widget_remove_css_class(stateLabel, "failed")
        }
        let usage = message.state == .streaming || message.state == .sending ? nil : message.usage
        gtk_label_set_text(usageLabel.opaque, usage?.summary ?? "")
        agent_widget_set_tooltip_text(usageLabel, usage?.details)
        gtk_widget_set_visible(usageLabel, usage?.summary == nil ? 0 : 1)
        if message.state == .sending || message.state == .streaming {
            gtk_widget_add_css_class(bubble, "in-flight")
        } else {
            gtk_widget_remove_css_class(bubble, "in-flight")
        }
    }
}
