import AgentCore
import CGtk
import FoundationEssentials

/// One message in the transcript: a bubble on the right for the user, on the left with
/// "assistant (model)", the time and a Copy button for a reply. Rows are recycled by the
/// list view; a streaming reply relayouts only its last paragraph on each update.
@MainActor
final class MessageRow {
    let root: UnsafeMutablePointer<GtkWidget>
    private let metaLine: UnsafeMutablePointer<GtkWidget>
    let authorLabel: UnsafeMutablePointer<GtkWidget>
    private let timeLabel: UnsafeMutablePointer<GtkWidget>
    let bubble: UnsafeMutablePointer<GtkWidget>
    private let footer: UnsafeMutablePointer<GtkWidget>
    let stateLabel: UnsafeMutablePointer<GtkWidget>
    /// Tokens and tokens per second of a finished reply.
    let usageLabel: UnsafeMutablePointer<GtkWidget>
    let copyButton: UnsafeMutablePointer<GtkWidget>
    let editButton: UnsafeMutablePointer<GtkWidget>
    let regenerateButton: UnsafeMutablePointer<GtkWidget>
    private var paragraphLabels: [StackedLabel] = []
    /// The plain tail of a reply while it streams, in place of the labels.
    private(set) var tailView: PlainTextView?
    /// A reply's finished Markdown blocks, rendered; the plain tail (`tailBox`) follows.
    private let markdownBox: UnsafeMutablePointer<GtkWidget>
    private let tailBox: UnsafeMutablePointer<GtkWidget>
    private var renderedOffset = 0
    /// How much of a streaming reply's text the row shows so far (see `updateText`).
    private var revealed = 0
    private var splitter = MarkdownBlockSplitter()
    private var markdown: MarkdownWidgets
    private var renderedWidgets: [UnsafeMutablePointer<GtkWidget>] = []
    /// Shows a reply too long to show whole, in place of the two boxes above.
    private(set) var longReply: LongReplyView?
    /// Tool calls sit at the top of the bubble, before the text.
    private let toolBox: UnsafeMutablePointer<GtkWidget>
    private(set) var toolLines: [ToolCallLine] = []
    private var shownToolCalls: [ToolCall] = []
    private var tracker = ParagraphTracker()
    private var shownModel: String?
    private var shownTime: Date?
    private var shownState: MessageState?
    private var shownRole: Role?
    private(set) var messageID: UUID?

    /// What the row's buttons ask for.
    struct Handlers {
        var copy: @MainActor (UUID, UnsafeMutablePointer<GtkWidget>) -> Void
        var copyText: @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void
        var edit: @MainActor (UUID) -> Void
        var regenerate: @MainActor () -> Void
    }

    init(actions: Handlers) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 3)
        GtkText.addClasses(root, "message-row")

        metaLine = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)
        authorLabel = gtk_label_new(nil)
        GtkText.addClasses(authorLabel, "author")
        timeLabel = gtk_label_new(nil)
        GtkText.addClasses(timeLabel, "time", "dim-label")
        gtk_box_append(metaLine.cast(), authorLabel)
        gtk_box_append(metaLine.cast(), timeLabel)

        bubble = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        GtkText.addClasses(bubble, "bubble")
        toolBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
        gtk_widget_set_visible(toolBox, 0)
        gtk_box_append(bubble.cast(), toolBox)
        markdownBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        tailBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_box_append(bubble.cast(), markdownBox)
        gtk_box_append(bubble.cast(), tailBox)
        markdown = MarkdownWidgets(copyCode: actions.copyText)

        footer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        stateLabel = gtk_label_new(nil)
        GtkText.addClasses(stateLabel, "message-state")
        usageLabel = gtk_label_new(nil)
        GtkText.addClasses(usageLabel, "message-usage", "dim-label")
        gtk_widget_set_visible(usageLabel, 0)
        copyButton = gtk_button_new_from_icon_name("edit-copy-symbolic")
        GtkText.addClasses(copyButton, "flat", "copy-button")
        gtk_widget_set_tooltip_text(copyButton, "Copy reply")
        agent_accessible_set_label(copyButton, "Copy")
        editButton = gtk_button_new_from_icon_name("document-edit-symbolic")
        GtkText.addClasses(editButton, "flat", "copy-button")
        gtk_widget_set_tooltip_text(editButton, "Edit and send again")
        agent_accessible_set_label(editButton, "Edit")
        regenerateButton = gtk_button_new_from_icon_name("view-refresh-symbolic")
        GtkText.addClasses(regenerateButton, "flat", "copy-button")
        gtk_widget_set_tooltip_text(regenerateButton, "Regenerate reply")
        agent_accessible_set_label(regenerateButton, "Regenerate")
        gtk_box_append(footer.cast(), stateLabel)
        gtk_box_append(footer.cast(), editButton)
        gtk_box_append(footer.cast(), copyButton)
        gtk_box_append(footer.cast(), regenerateButton)
        gtk_box_append(footer.cast(), usageLabel)

        gtk_box_append(root.cast(), metaLine)
        gtk_box_append(root.cast(), bubble)
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
        Signals.connect(regenerateButton.raw, "clicked") { actions.regenerate() }

        let rowActions: UnsafeMutablePointer<GSimpleActionGroup> = g_simple_action_group_new()
        Actions.add("copy", to: UnsafeMutableRawPointer(rowActions)) { [weak self] in
            guard let self, let id = messageID else { return }
            actions.copy(id, bubble)
        }
        Actions.add("edit", to: UnsafeMutableRawPointer(rowActions)) { [weak self] in
            guard let id = self?.messageID else { return }
            actions.edit(id)
        }
        Actions.add("regenerate", to: UnsafeMutableRawPointer(rowActions)) { actions.regenerate() }
        gtk_widget_insert_action_group(root, "row", OpaquePointer(rowActions))
        g_object_unref(UnsafeMutableRawPointer(rowActions))
        let rightClick: OpaquePointer = gtk_gesture_click_new()
        gtk_gesture_single_set_button(rightClick, guint(GDK_BUTTON_SECONDARY))
        gtk_event_controller_set_propagation_phase(rightClick, GTK_PHASE_CAPTURE)
        Signals.connectPressed(UnsafeMutableRawPointer(rightClick)) { [weak self] _, x, y in
            gtk_gesture_set_state(rightClick, GTK_EVENT_SEQUENCE_CLAIMED)
            self?.showContextMenu(x: x, y: y)
        }
        gtk_widget_add_controller(bubble, rightClick)
    }

    /// The right-click menu of a message: Copy, Edit (the user's) or Regenerate (the last
    /// reply), and Copy Chat. Made when asked for and dropped once closed.
    func showContextMenu(x: Double, y: Double) {
        guard messageID != nil else { return }
        let menu: OpaquePointer = g_menu_new()
        let isUser = shownRole == .user
        g_menu_append(menu, isUser ? "Copy Message" : "Copy Reply", "row.copy")
        if isUser { g_menu_append(menu, "Edit and Send Again", "row.edit") }
        if gtk_widget_get_visible(regenerateButton) != 0 { g_menu_append(menu, "Regenerate Reply", "row.regenerate") }
        g_menu_append(menu, "Copy Chat as Markdown", "win.copy-chat")
        let popover: UnsafeMutablePointer<GtkWidget> = gtk_popover_menu_new_from_model(
            UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_widget_set_parent(popover, bubble)
        var point = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(popover.cast(), &point)
        gtk_popover_set_has_arrow(popover.cast(), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        Signals.connect(popover.raw, "closed") { [weak self] in
            self?.contextMenu = nil
            // Unparented once the click that closed it has been handled.
            Task { @MainActor in gtk_widget_unparent(popover) }
        }
        contextMenu = popover
        gtk_popover_popup(popover.cast())
    }

    /// The open context menu (tests).
    private(set) var contextMenu: UnsafeMutablePointer<GtkWidget>?

    /// The text the row shows, paragraphs joined by blank lines (what a screen reader reads).
    var displayedText: String {
        if let longReply { return longReply.text }
        let rendered = renderedWidgets.flatMap(Self.labelTexts)
        let tail = tailView.map { [$0.text] } ?? paragraphLabels.compactMap { StackedLabel.text(of: $0.widget) }
        return (rendered + tail).joined(separator: "\n\n")
    }

    /// The code blocks rendered in this row (tests).
    var codeBlocks: [CodeBlockView] { markdown.codeBlocks }

    private static func labelTexts(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                      gtk_label_get_type()) != 0 {
            return [String(cString: gtk_label_get_text(widget.opaque))]
        }
        if let stacked = StackedLabel.text(of: widget) { return [stacked] }
        var texts: [String] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            texts += labelTexts(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }

    /// Whether this is the conversation's last reply and may be regenerated now.
    func showRegenerate(_ shown: Bool) {
        gtk_widget_set_visible(regenerateButton, shown ? 1 : 0)
    }

    func bind(_ message: ChatMessage) {
        messageID = message.id
        tracker = ParagraphTracker()
        resetRendered()
        shownModel = nil
        shownTime = nil
        shownState = nil
        shownToolCalls = []
        if shownRole != message.role { applyRole(message.role) }
        update(message)
    }

    func unbind() {
        messageID = nil
    }

    /// Shows the message's current text and state; cheap when little changed.
    /// Returns false when a flood of text is still being taken on (update again next frame).
    @discardableResult
    func update(_ message: ChatMessage) -> Bool {
        if message.model != shownModel || shownTime == nil {
            shownModel = message.model
            gtk_label_set_text(authorLabel.opaque, message.authorLabel)
        }
        if message.time != shownTime {
            shownTime = message.time
            gtk_label_set_text(timeLabel.opaque, TimeText.short(message.time))
            gtk_widget_set_tooltip_text(timeLabel, message.isoTime)
        }
        if message.state != shownState {
            shownState = message.state
            showState(message)
        }
        if message.toolCalls != shownToolCalls { showToolCalls(message.toolCalls) }
        return updateText(message)
    }

    private func showToolCalls(_ calls: [ToolCall]) {
        shownToolCalls = calls
        while toolLines.count > calls.count {
            gtk_box_remove(toolBox.cast(), toolLines.removeLast().widget)
        }
        while toolLines.count < calls.count {
            let line = ToolCallLine()
            gtk_box_append(toolBox.cast(), line.widget)
            toolLines.append(line)
        }
        for (line, call) in zip(toolLines, calls) { line.show(call) }
        gtk_widget_set_visible(toolBox, calls.isEmpty ? 0 : 1)
    }

    private func applyRole(_ role: Role) {
        shownRole = role
        let isUser = role == .user
        gtk_widget_set_halign(root, isUser ? GTK_ALIGN_END : GTK_ALIGN_START)
        gtk_widget_set_halign(metaLine, isUser ? GTK_ALIGN_END : GTK_ALIGN_START)
        gtk_widget_set_halign(footer, isUser ? GTK_ALIGN_END : GTK_ALIGN_START)
        gtk_widget_set_visible(authorLabel, isUser ? 0 : 1)
        gtk_widget_set_visible(copyButton, isUser ? 0 : 1)
        gtk_widget_set_visible(editButton, isUser ? 1 : 0)
        gtk_widget_set_visible(regenerateButton, 0)
        if isUser {
            gtk_widget_remove_css_class(bubble, "assistant")
            gtk_widget_add_css_class(bubble, "user")
        } else {
            gtk_widget_remove_css_class(bubble, "user")
            gtk_widget_add_css_class(bubble, "assistant")
        }
    }

    private func showState(_ message: ChatMessage) {
        let text: String? = switch message.state {
        case .cutOff: "Cut off"
        case .stopped: "Stopped"
        case .failed: message.role == .user ? "Not delivered" : "Failed"
        case .sending, .streaming, .done: nil
        }
        gtk_label_set_text(stateLabel.opaque, text ?? "")
        gtk_widget_set_visible(stateLabel, text == nil ? 0 : 1)
        let usage = message.state == .streaming || message.state == .sending ? nil : message.usage
        gtk_label_set_text(usageLabel.opaque, usage?.summary ?? "")
        gtk_widget_set_tooltip_text(usageLabel, usage?.details)
        gtk_widget_set_visible(usageLabel, usage?.summary == nil ? 0 : 1)
        let inFlight = message.state == .sending || message.state == .streaming
        if inFlight {
            gtk_widget_add_css_class(bubble, "in-flight")
        } else {
            gtk_widget_remove_css_class(bubble, "in-flight")
        }
    }

    /// A reply's finished blocks are rendered from Markdown (all of it once the reply has
    /// ended); the block still being written streams as plain text into a text view, which
    /// lays out only the lines added (labels are laid out whole on every frame). The user's
    /// own messages stay plain text, in labels.
    /// While a reply streams, a flood of text is taken on `LongText.revealPerFrame` at a
    /// time; returns false when some of it is still to show (update again next frame).
    private func updateText(_ message: ChatMessage) -> Bool {
        let growing = message.state == .streaming || message.state == .sending
        let isLong = message.text.utf8.count > LongText.labelLimit
        let longCaughtUp = showLongReply(isLong ? LongText.head(of: message.text).text : nil, of: message.text.utf8.count)
        guard !isLong else { return longCaughtUp }
        var shown = message.text
        var caughtUp = true
        if growing, shown.utf8.count > revealed + LongText.revealPerFrame {
            shown = String(LongText.head(of: shown, limit: revealed + LongText.revealPerFrame, atLineBreak: false).text)
            caughtUp = false
        }
        revealed = growing ? shown.utf8.count : 0
        var plain = shown
        if message.role == .assistant && !shown.isEmpty {
            let utf8 = shown.utf8
            if utf8.count < renderedOffset { resetRendered() }
            let finished = message.state != .sending && message.state != .streaming
            let boundary = finished ? utf8.count : splitter.advance(shown)
            if boundary > renderedOffset {
                let start = utf8.index(utf8.startIndex, offsetBy: renderedOffset)
                let end = utf8.index(utf8.startIndex, offsetBy: boundary)
                let chunk = String(decoding: utf8[start..<end], as: UTF8.self)
                for widget in markdown.widgets(for: MarkdownParser.parse(chunk)) {
                    gtk_box_append(markdownBox.cast(), widget)
                    renderedWidgets.append(widget)
                }
                renderedOffset = boundary
                tracker = ParagraphTracker()
            }
            plain = String(decoding: utf8[utf8.index(utf8.startIndex, offsetBy: renderedOffset)...], as: UTF8.self)
        } else if message.text.isEmpty && message.toolCalls.isEmpty {
            plain = "…"
        }
        showPlain(plain, streaming: growing && message.role == .assistant)
        return caughtUp
    }

    /// A reply too long for labels: as plain text (its head, when longer still) in a
    /// `LongReplyView`.
    private func showLongReply(_ head: Substring?, of totalBytes: Int) -> Bool {
        guard let head else {
            guard let longReply else { return true }
            gtk_box_remove(bubble.cast(), longReply.widget)
            self.longReply = nil
            gtk_widget_set_visible(markdownBox, 1)
            gtk_widget_set_visible(tailBox, 1)
            return true
        }
        let view = longReply ?? {
            resetRendered()
            showPlain("", streaming: false)
            gtk_widget_set_visible(markdownBox, 0)
            gtk_widget_set_visible(tailBox, 0)
            let view = LongReplyView()
            gtk_box_insert_child_after(bubble.cast(), view.widget, tailBox)
            longReply = view
            return view
        }()
        return view.show(head, of: totalBytes)
    }

    /// Shows the plain tail: a streaming reply's in a text view, other text in labels, a
    /// paragraph each.
    private func showPlain(_ text: String, streaming: Bool) {
        if streaming {
            let view = tailView ?? {
                removeParagraphLabels()
                let view = PlainTextView(classes: ["message-text"])
                gtk_box_append(tailBox.cast(), view.widget)
                tailView = view
                return view
            }()
            // The next block's leading space or line break is not shown (as once rendered).
            let shown = text.drop { $0.isWhitespace }
            view.show(shown, limit: .max)
            gtk_widget_set_visible(view.widget, shown.isEmpty ? 0 : 1)
            return
        }
        if let tailView {
            gtk_box_remove(tailBox.cast(), tailView.widget)
            self.tailView = nil
        }
        guard let firstChanged = tracker.update(with: text) else { return }
        let paragraphs = text.isEmpty ? [] : tracker.paragraphs
        while paragraphLabels.count > paragraphs.count {
            gtk_box_remove(tailBox.cast(), paragraphLabels.removeLast().widget)
        }
        for index in min(firstChanged, paragraphs.count)..<paragraphs.count {
            if index == paragraphLabels.count {
                let paragraph = StackedLabel(classes: ["message-text"])
                gtk_box_append(tailBox.cast(), paragraph.widget)
                paragraphLabels.append(paragraph)
            }
            paragraphLabels[index].setText(paragraphs[index])
        }
    }

    private func removeParagraphLabels() {
        for paragraph in paragraphLabels { gtk_box_remove(tailBox.cast(), paragraph.widget) }
        paragraphLabels = []
        tracker = ParagraphTracker()
    }

    private func resetRendered() {
        for widget in renderedWidgets { gtk_box_remove(markdownBox.cast(), widget) }
        renderedWidgets = []
        renderedOffset = 0
        revealed = 0
        splitter = MarkdownBlockSplitter()
        markdown = MarkdownWidgets(copyCode: markdown.copyCode)
        tracker = ParagraphTracker()
    }
}
