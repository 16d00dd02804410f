import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// The conversation: a `GtkListView` over a string list of message IDs that mirrors the
/// view model's conversation, so only rows near the viewport exist; a row finds its message
/// by the id its item holds, never by position. Token updates are applied at most once per
/// frame, to the rows they concern. The view follows the newest text while the user is at
/// the bottom and leaves them be once they scroll up; a chat opened at a search hit shows
/// the hit, marked. Another version shown from a row (its buttons, Alt+Left / Alt+Right)
/// is scrolled to and keeps the keyboard focus. A reply read aloud shows the word being
/// spoken, kept in view.
@MainActor
final class TranscriptView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let listView: UnsafeMutablePointer<GtkWidget>
    private let store: OpaquePointer
    let adjustment: UnsafeMutablePointer<GtkAdjustment>
    let viewModel: ChatViewModel
    let readAloud: ReadAloud
    /// Whether the view follows the word spoken: until the user scrolls it out of view.
    var followsReading = true
    /// A reply to read aloud once its row is built (Ctrl+Shift+S on a reply out of view).
    var pendingRead: UUID?
    private var rowsByItem: [UnsafeMutableRawPointer: MessageRow] = [:]
    private(set) var boundRows: [UUID: MessageRow] = [:]
    private var pendingUpdates: Set<UUID> = []
    private var frameScheduled = false
    /// The reply last shown with a tool waiting for the user's answer.
    private var awaitingAnswer: UUID?
    /// The ends of the loaded messages that more are to load at, at the next frame (`fill`).
    var fillScheduled: Set<End> = []
    /// How many messages load in one frame while scrolling: each is a row built in that frame.
    static let loadedPerFrame = 2
    /// Where the keyboard focus goes in the row of the version about to be shown.
    private var focusAfterSwitch: MessageRow.FocusTarget?
    /// A row to focus once it is bound: the version just shown.
    private var pendingFocus: (id: UUID, target: MessageRow.FocusTarget)?
    /// The replies whose Thinking section the user opened (rows are recycled while scrolling).
    private var expandedThinking: Set<UUID> = []

    /// Runs after something was copied (the window shows a brief "Copied").
    var onCopied: (() -> Void)?
    /// Takes the keyboard focus when the row holding it is removed (the composer does).
    var onFocusedRowRemoved: (() -> Void)?
    /// Asked to delete a version of a message (the window deletes it and offers Undo).
    var onDeleteVersion: ((UUID) -> Void)?

    /// Whether the view keeps the newest text in sight.
    var followsNewest = true
    /// A message to scroll into view once its row is laid out (a search hit).
    var revealing: UUID?
    /// The view itself is moving the adjustment: not a scroll the user made.
    var settingScroll = false
    /// GTK changed the adjustment's bounds this frame: a scroll now is not the user's.
    var reconfiguredThisFrame = false
    /// The frame clock whose layout `keepNewestInView` follows while the list is realized, and that handler.
    var frameClock: UnsafeMutableRawPointer?
    var layoutHandler: gulong = 0

    init(viewModel: ChatViewModel, readAloud: ReadAloud) {
        self.viewModel = viewModel
        self.readAloud = readAloud
        store = gtk_string_list_new(nil)
        let factory: OpaquePointer = gtk_signal_list_item_factory_new()
        // The selection model and the list view each take ownership of what they are given.
        g_object_ref(UnsafeMutableRawPointer(store))
        let selection = gtk_no_selection_new(store)
        listView = gtk_list_view_new(selection, factory)
        GtkText.addClasses(listView, "transcript")
        agent_accessible_set_label(listView, tr("Conversation"))

        widget = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(widget.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(widget.opaque, listView)
        gtk_widget_set_vexpand(widget, 1)
        adjustment = gtk_scrolled_window_get_vadjustment(widget.opaque)

        connectFactory(UnsafeMutableRawPointer(factory))
        connectScrolling()
        switchVersionsWithKeys()
        for index in 0..<viewModel.conversation.count {
            gtk_string_list_append(store, viewModel.conversation[index].id.uuidString)
        }
    }

    /// Mirrors one view-model change.
    func apply(_ change: ChatViewModel.Change) {
        switch change {
        case .messagesInserted(let indices):
            // The view goes to the message sent and follows the reply.
            if viewModel.isJustSent(indices) {
                followsNewest = true
                revealing = nil
            }
            // One change for the list view however many came: it builds the rows on screen once.
            StringLists.splice(store, at: indices.lowerBound, removing: 0, indices.map { viewModel.conversation[$0].id.uuidString })
        case .messagesRemoved(let indices):
            let removed = remove(indices)
            refreshControls()
            if let reading = readAloud.readingMessageID, removed.contains(reading) { readAloud.stop() }
        case .messagesUnloaded(let indices):
            // A reply read aloud goes on: its row shows the word again once it is back.
            remove(indices)
            refreshControls()
        case .messageChanged(let index):
            pendingUpdates.insert(viewModel.conversation[index].id)
            scheduleFrame()
        case .composer:
            refreshControls()
        case .reloaded:
            pendingFocus = nil
            reload()
            refreshControls()
            showFocusedMessage()
            stopReadingIfGone()
        case .focused:
            followsNewest = false
            showFocusedMessage()
        case .versionShown(let index):
            showVersion(at: index)
            stopReadingIfGone()
        case .consentRequested, .consentSettled:
            // The reply whose tool waits for the user's answer says so in that tool's line.
            for id in [awaitingAnswer, viewModel.replyAwaitingAnswer].compactMap({ $0 }) { pendingUpdates.insert(id) }
            awaitingAnswer = viewModel.replyAwaitingAnswer
            scheduleFrame()
        case .error, .status, .replyFinished, .replyLeft, .files, .knowledge, .settings:
            break
        }
    }

    /// Takes the rows of the items at `indices` away, the keyboard focus out of them first;
    /// the messages they showed.
    @discardableResult
    private func remove(_ indices: Range<Int>) -> [UUID] {
        let ids = indices.compactMap { index in
            gtk_string_list_get_string(store, guint(index)).flatMap { UUID(uuidString: String(cString: $0)) }
        }
        rescueFocus(fromRowsOf: ids)
        StringLists.splice(store, at: indices.lowerBound, removing: indices.count, [])
        return ids
    }

    /// What each row's controls offer, after anything that changes it: sending started or
    /// ended, a message or a version gone, another version shown.
    private func refreshControls() {
        let lastReply = viewModel.canRegenerate ? viewModel.conversation.messages.last?.id : nil
        for (id, row) in boundRows { row.show(controls(for: id, lastReply: lastReply)) }
    }

    private func controls(for id: UUID, lastReply: UUID?) -> MessageRow.Controls {
        MessageRow.Controls(regenerateButton: id == lastReply, canRegenerate: viewModel.canRegenerate(id), canEdit: viewModel.canEdit(id),
                            version: viewModel.versions(of: id).map { VersionSwitcher.Place(position: $0.position, count: $0.count) },
                            canShowPrevious: viewModel.canShowVersion(of: id, offset: -1),
                            canShowNext: viewModel.canShowVersion(of: id, offset: 1),
                            canDeleteVersion: viewModel.canDeleteVersion(id))
    }

    /// Moves the keyboard focus out of the rows of `ids` before they go (see `FocusRescue`).
    private func rescueFocus(fromRowsOf ids: some Sequence<UUID>) {
        if ids.contains(where: { boundRows[$0].map { FocusRescue.holdsFocus(rowOf: $0.root) } ?? false }) {
            onFocusedRowRemoved?()
        }
    }

    /// Shows the view model's conversation anew (another chat).
    private func reload() {
        rescueFocus(fromRowsOf: boundRows.keys)
        pendingUpdates.removeAll()
        followsNewest = viewModel.focusedMessageID == nil
        StringLists.splice(store, at: 0, removing: Int(g_list_model_get_n_items(store)),
                           viewModel.conversation.messages.map(\.id.uuidString))
    }

    /// The row showing message `id`, if it is built (for tests).
    func boundRow(for id: UUID) -> MessageRow? { boundRows[id] }

    /// Whether every message change has reached its row: none waits for a frame (for tests).
    var isSettled: Bool { pendingUpdates.isEmpty && !frameScheduled && fillScheduled.isEmpty }

    /// Shows the version `offset` away from message `id` (a row's buttons or keys): its row
    /// will hold the keyboard focus where the old one held it.
    private func showVersion(of id: UUID, offset: Int) {
        focusAfterSwitch = boundRows[id]?.focusedPart
        viewModel.showVersion(of: id, offset: offset)
        focusAfterSwitch = nil
    }

    /// Another version is shown at `index`: it stays in view (rather than the newest text)
    /// and, when it was switched to from its row, takes the keyboard focus.
    private func showVersion(at index: Int) {
        followsNewest = false
        revealing = nil
        refreshControls()
        guard index < viewModel.conversation.count else { return }
        agent_list_view_scroll_to(listView, guint(index))
        if let target = focusAfterSwitch {
            pendingFocus = (viewModel.conversation[index].id, target)
            focusPendingRow()
        }
    }

    /// Focuses the row waiting for the focus once it is bound, at the next frame: a row is
    /// bound while the list lays itself out, no time to move the focus.
    private func focusPendingRow() {
        guard let pending = pendingFocus, let row = boundRows[pending.id] else { return }
        pendingFocus = nil
        FrameTick.once(on: listView) { [weak row] in
            guard let row, row.messageID == pending.id else { return }
            row.focus(pending.target)
        }
    }

    /// Alt+Left and Alt+Right (the other way round right to left) show the previous and next
    /// version of the message whose row holds the focus; other rows leave the keys to the window.
    private func switchVersionsWithKeys() {
        guard let keys = gtk_event_controller_key_new() else { return }
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, state in
            guard let self, state.rawValue & Signals.keyModifiers == GDK_ALT_MASK.rawValue,
                  keyval == UInt32(GDK_KEY_Left) || keyval == UInt32(GDK_KEY_Right),
                  let focused = boundRows.first(where: { $0.value.focusedPart != nil }),
                  viewModel.versions(of: focused.key) != nil else { return false }
            let rightToLeft = gtk_widget_get_direction(listView) == GTK_TEXT_DIR_RTL
            let back = (keyval == UInt32(GDK_KEY_Left)) != rightToLeft
            gtk_widget_activate_action_variant(focused.value.root, back ? "row.previous-version" : "row.next-version", nil)
            return true
        }
        gtk_widget_add_controller(listView, keys)
    }

    /// A chat opened at a search hit: the hit is marked and scrolled into view once its row
    /// is laid out (`revealFocusedMessage`).
    private func showFocusedMessage() {
        for (id, row) in boundRows { row.showFound(id == viewModel.focusedMessageID) }
        revealing = viewModel.focusedMessageID
        revealFocusedMessage()
    }

    /// Scrolls the message being revealed into view; after each layout until its row is in
    /// view, as GTK's list scrolls only to a row it has measured. Meanwhile no messages load
    /// (`fillNearEnds`): the view at the top of rows not yet measured would load earlier ones
    /// and let go of the hit's page at the other end.
    func revealFocusedMessage() {
        guard let id = revealing, id == viewModel.focusedMessageID, let index = viewModel.conversation.index(of: id) else {
            revealing = nil
            return
        }
        if let row = boundRows[id], isInView(row.root) {
            revealing = nil
        } else {
            agent_list_view_scroll_to(listView, guint(index))
        }
    }

    /// Whether `widget` lies, at least in part, within the visible part of the list.
    private func isInView(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        var bounds = graphene_rect_t()
        guard gtk_widget_get_height(widget) > 0, gtk_widget_compute_bounds(widget, listView, &bounds) != 0 else { return false }
        return bounds.origin.y + bounds.size.height > 0 && Double(bounds.origin.y) < Double(gtk_widget_get_height(listView))
    }

    private func scheduleFrame() {
        guard !frameScheduled else { return }
        frameScheduled = true
        FrameTick.once(on: listView) { [weak self] in self?.flushUpdates() }
    }

    private func flushUpdates() {
        frameScheduled = false
        let ids = pendingUpdates
        pendingUpdates.removeAll(keepingCapacity: true)
        for id in ids {
            guard let row = boundRows[id], let index = viewModel.conversation.index(of: id) else { continue }
            if !row.update(viewModel.conversation[index], awaitingAnswer: id == viewModel.replyAwaitingAnswer) {
                pendingUpdates.insert(id)
                scheduleFrame()
            }
        }
    }

    // MARK: Rows

    private func connectFactory(_ factory: UnsafeMutableRawPointer) {
        Signals.connect(factory, "setup") { [weak self] item in
            guard let self, let item else { return }
            let row = MessageRow(actions: MessageRow.Handlers(
                copy: { [weak self] id, button in self?.copyMessage(id, from: button) },
                copyText: { [weak self] text, button in self?.copy(text, from: button) },
                edit: { [weak self] id in self?.viewModel.beginEdit(id) },
                regenerate: { [weak self] id in self?.viewModel.regenerate(id) },
                showVersion: { [weak self] id, offset in self?.showVersion(of: id, offset: offset) },
                deleteVersion: { [weak self] id in self?.onDeleteVersion?(id) },
                openFile: { [weak self] file, button in self?.open(file, from: button) },
                openSource: { [weak self] source, button in self?.open(source, from: button) },
                thinkingToggled: { [weak self] id, expanded in
                    if expanded { self?.expandedThinking.insert(id) } else { self?.expandedThinking.remove(id) }
                },
                readAloud: { [weak self] id in self?.toggleReading(id) }))
            gtk_list_item_set_child(OpaquePointer(item), row.root)
            gtk_list_item_set_activatable(OpaquePointer(item), 0)
            gtk_list_item_set_selectable(OpaquePointer(item), 0)
            rowsByItem[item] = row
        }
        Signals.connect(factory, "bind") { [weak self] item in
            guard let self, let item, let row = rowsByItem[item],
                  let id = Self.messageID(of: item), let index = viewModel.conversation.index(of: id) else { return }
            let message = viewModel.conversation[index]
            let lastReply = viewModel.canRegenerate ? viewModel.conversation.messages.last?.id : nil
            if !row.bind(message, controls: controls(for: id, lastReply: lastReply), thinkingExpanded: expandedThinking.contains(message.id),
                         awaitingAnswer: id == viewModel.replyAwaitingAnswer) {
                pendingUpdates.insert(message.id)
                scheduleFrame()
            }
            row.showFound(message.id == viewModel.focusedMessageID)
            boundRows[message.id] = row
            if pendingFocus?.id == message.id { focusPendingRow() }
            if pendingRead == message.id {
                pendingRead = nil
                toggleReading(message.id)
            } else if readAloud.readingMessageID == message.id {
                showReading()
            }
        }
        Signals.connect(factory, "unbind") { [weak self] item in
            guard let self, let item, let row = rowsByItem[item] else { return }
            if let id = row.messageID, boundRows[id] === row { boundRows[id] = nil }
            row.unbind()
        }
        Signals.connect(factory, "teardown") { [weak self] item in
            guard let self, let item else { return }
            rowsByItem[item] = nil
        }
    }

    /// The message id a list item holds (its `GtkStringObject`).
    private static func messageID(of item: UnsafeMutableRawPointer) -> UUID? {
        guard let object = gtk_list_item_get_item(OpaquePointer(item)),
              let string = gtk_string_object_get_string(OpaquePointer(object)) else { return nil }
        return UUID(uuidString: String(cString: string))
    }

    private func copyMessage(_ id: UUID, from button: UnsafeMutablePointer<GtkWidget>) {
        guard let index = viewModel.conversation.index(of: id) else { return }
        copy(viewModel.conversation[index].text, from: button)
    }

    /// Puts `text` on the clipboard and says so.
    private func copy(_ text: String, from widget: UnsafeMutablePointer<GtkWidget>) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text)
        onCopied?()
    }

    /// Opens a sent file in the desktop's app for it, from a copy in the cache; a failure
    /// goes to the alert.
    private func open(_ file: AttachedFile, from widget: UnsafeMutablePointer<GtkWidget>) {
        let status = viewModel.status
        do {
            DefaultApp.open(try file.openableCopy(), from: widget) { reason in
                status.report(tr("Could not open “%1$s”: %2$s", file.name, reason), heading: tr("Could Not Open File"))
            }
        } catch {
            status.report(tr("Could not open “%1$s”: %2$s", file.name, ChatError.describe(error)), heading: tr("Could Not Open File"))
        }
    }

    /// Opens a reply's source file in the desktop's app for it.
    private func open(_ source: KnowledgeSource, from widget: UnsafeMutablePointer<GtkWidget>) {
        let status = viewModel.status
        DefaultApp.open(URL(filePath: source.path), from: widget) { reason in
            status.report(tr("Could not open “%1$s”: %2$s", source.path, reason), heading: tr("Could Not Open File"))
        }
    }
}
