import AgentCore
import CGtk
import TextLayout

/// What a reply's bubble holds: its thinking (collapsed), its tool calls (each group under
/// the text written before it), then its text.
/// While the reply streams, each Markdown block is rendered once it is complete and the
/// block still being written streams as plain text into a text view (which lays out only
/// the lines added); once the reply ends it is rendered again, whole — a list item's later
/// paragraphs, a reference link's target, a footnote change how earlier blocks read — so it
/// looks as it will when the chat is opened again. A reply too long for labels is shown as
/// plain text.
@MainActor
final class ReplyBody {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// A reasoning model's thinking, above the answer: made for the first reply the row
    /// shows that has any.
    private(set) var thinking: ThinkingSection?
    /// Runs when the user opens (true) or closes the Thinking section.
    var onThinkingToggled: ((Bool) -> Void)?
    /// Whether the Thinking section shows open (a recycled row shows its reply as the user left it).
    var thinkingExpanded = false {
        didSet { thinking?.setExpanded(thinkingExpanded) }
    }
    private let tools: ToolRounds
    /// Where in the reply's text the part shown below the tool calls begins (UTF-8 bytes).
    private var textStart = 0
    /// The rendered blocks, then the plain tail (`tailView`) while the reply streams.
    private let markdownBox: UnsafeMutablePointer<GtkWidget>
    /// `markdownBox` in a reading-width box, as wide as its widest line: while the reply
    /// streams, never narrower than it has been (see `showTail`).
    private let textColumn: UnsafeMutablePointer<GtkWidget>
    private var markdown: MarkdownWidgets
    private var renderedWidgets: [UnsafeMutablePointer<GtkWidget>] = []
    /// How much of the text the rendered blocks cover (UTF-8 bytes).
    private var renderedOffset = 0
    /// Whether the rendered blocks were made piece by piece while the reply streamed.
    private var renderedInPieces = false
    private var splitter = MarkdownBlockSplitter()
    /// How much of a streaming reply's text is shown so far (a flood is taken on a frame at a time).
    private var revealed = 0
    /// The plain tail of a reply while it streams.
    private(set) var tailView: PlainTextView?
    /// "…" while nothing has arrived.
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    /// A reply too long to render, in place of `textColumn`.
    private(set) var longReply: LongReplyView?

    init(copyCode: @escaping @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void) {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        tools = ToolRounds(copyCode: copyCode)
        markdownBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        textColumn = agent_reading_width_box_new(markdownBox, 0)
        placeholder = StackedLabel.makeLabel(classes: ["message-text", "dim-label"])
        gtk_label_set_text(placeholder.opaque, "…")
        gtk_box_append(widget.cast(), tools.widget)
        gtk_box_append(widget.cast(), textColumn)
        gtk_box_append(widget.cast(), placeholder)
        markdown = MarkdownWidgets(copyCode: copyCode)
    }

    /// The text shown, blocks joined by blank lines (what a screen reader reads).
    var displayedText: String {
        if let longReply { return longReply.text }
        if gtk_widget_get_visible(placeholder) != 0 { return "…" }
        let rendered = (tools.textWidgets + renderedWidgets).flatMap(GtkText.labels)
        let tail = tailView.map { [$0.text] } ?? []
        return (rendered + tail).filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// The widgets showing the reply's words (not its thinking or its tool calls), in order.
    var textWidgets: [UnsafeMutablePointer<GtkWidget>] {
        if let longReply { return [longReply.widget] }
        return tools.textWidgets + renderedWidgets + (tailView.map { [$0.widget] } ?? [])
    }

    /// The tool calls' lines, in order.
    var toolLines: [ToolCallLine] { tools.lines }

    /// The code blocks rendered (tests, the row's accessibility).
    var codeBlocks: [CodeBlockView] { tools.codeBlocks + markdown.codeBlocks }

    /// Forgets what it showed (the row now shows another message).
    func reset() {
        resetRendered()
        removeTail()
        tools.reset()
        textStart = 0
        if let longReply {
            gtk_box_remove(widget.cast(), longReply.widget)
            self.longReply = nil
        }
    }

    /// Shows `reply` as it stands; cheap when little changed. Returns false while a flood of
    /// text is still being taken on (show again next frame). `awaitingAnswer`: its running
    /// tool waits for the user's answer to a consent question.
    @discardableResult
    func show(_ reply: ChatMessage, awaitingAnswer: Bool = false) -> Bool {
        defer { showTextColumnWhenFilled() }
        if reply.reasoning != nil || thinking != nil { thinkingSection().show(reply) }
        let streaming = reply.state == .streaming || reply.state == .sending
        let nothingYet = reply.text.isEmpty && reply.toolCalls.isEmpty && reply.reasoning == nil
        gtk_widget_set_visible(placeholder, streaming && nothingYet ? 1 : 0)
        let isLong = reply.text.utf8.count > LongText.labelLimit
        let start = tools.show(reply.toolCalls, in: reply.text, replyGoesOn: streaming, splittingText: !isLong, awaitingAnswer: awaitingAnswer)
        if start != textStart {
            // A new group of calls: the text before it went above them.
            resetRendered()
            removeTail()
            textStart = start
        }
        let longCaughtUp = showLongReply(isLong ? LongText.head(of: reply.text).text : nil, of: reply.text.utf8.count)
        guard !isLong else { return longCaughtUp }

        // Below tool calls, the text after them: a copy, of at most the label limit.
        var shown = start == 0 ? reply.text : String(decoding: reply.text.utf8.dropFirst(start), as: UTF8.self)
        var caughtUp = true
        if streaming, shown.utf8.count > revealed + LongText.revealPerFrame {
            shown = String(LongText.head(of: shown, limit: revealed + LongText.revealPerFrame, atLineBreak: false).text)
            caughtUp = false
        }
        revealed = streaming ? shown.utf8.count : 0
        let utf8 = shown.utf8
        if utf8.count < renderedOffset || (!streaming && renderedInPieces) { resetRendered() }
        let boundary = streaming ? splitter.advance(shown) : utf8.count
        if boundary > renderedOffset {
            let start = utf8.index(utf8.startIndex, offsetBy: renderedOffset)
            let end = utf8.index(utf8.startIndex, offsetBy: boundary)
            for block in markdown.widgets(for: MarkdownParser.parse(String(decoding: utf8[start..<end], as: UTF8.self))) {
                // Before the tail, when there is one.
                gtk_box_insert_child_after(markdownBox.cast(), block, renderedWidgets.last)
                renderedWidgets.append(block)
            }
            renderedOffset = boundary
            renderedInPieces = streaming
        }
        if streaming {
            showTail(String(decoding: utf8[utf8.index(utf8.startIndex, offsetBy: renderedOffset)...], as: UTF8.self))
        } else {
            removeTail()
        }
        return caughtUp
    }

    private func thinkingSection() -> ThinkingSection {
        if let thinking { return thinking }
        let section = ThinkingSection()
        section.setExpanded(thinkingExpanded)
        section.onToggled = { [weak self] expanded in
            self?.thinkingExpanded = expanded
            self?.onThinkingToggled?(expanded)
        }
        gtk_box_prepend(widget.cast(), section.widget)
        thinking = section
        return section
    }

    /// The block being written, as plain text; its leading space or line break is not shown
    /// (as once rendered).
    private func showTail(_ text: String) {
        let view = tailView ?? {
            let view = PlainTextView(classes: ["message-text"])
            gtk_box_append(markdownBox.cast(), view.widget)
            agent_reading_width_box_keep_widest(textColumn, 1)
            tailView = view
            return view
        }()
        let shown = text.drop { $0.isWhitespace }
        view.show(shown, limit: .max)
        // Empty between two blocks (until the next word, or while a tool runs), it is hidden.
        // The column keeps the widest it has been meanwhile: narrower, every label would wrap
        // again — twice a paragraph, the whole reply each time. It grows as the tail's lines
        // do, so a reply of short lines is as narrow while it streams as when it ends.
        gtk_widget_set_visible(view.widget, shown.isEmpty ? 0 : 1)
    }

    private func removeTail() {
        guard let tailView else { return }
        gtk_box_remove(markdownBox.cast(), tailView.widget)
        self.tailView = nil
        agent_reading_width_box_keep_widest(textColumn, 0)
    }

    /// Shows the text column only with text in it: empty, it would add the bubble's spacing
    /// under the tool lines or above the "…".
    private func showTextColumnWhenFilled() {
        let filled = !renderedWidgets.isEmpty || tailView.map { gtk_widget_get_visible($0.widget) != 0 } == true
        gtk_widget_set_visible(textColumn, longReply == nil && filled ? 1 : 0)
    }

    /// A reply too long for labels: as plain text (its head, when longer still).
    private func showLongReply(_ head: Substring?, of totalBytes: Int) -> Bool {
        guard let head else {
            guard let longReply else { return true }
            gtk_box_remove(widget.cast(), longReply.widget)
            self.longReply = nil
            return true
        }
        let view = longReply ?? {
            resetRendered()
            removeTail()
            let view = LongReplyView()
            gtk_box_insert_child_after(widget.cast(), view.widget, textColumn)
            longReply = view
            return view
        }()
        return view.show(head, of: totalBytes)
    }

    private func resetRendered() {
        for block in renderedWidgets { gtk_box_remove(markdownBox.cast(), block) }
        renderedWidgets = []
        renderedOffset = 0
        renderedInPieces = false
        revealed = 0
        splitter = MarkdownBlockSplitter()
        markdown = MarkdownWidgets(copyCode: markdown.copyCode)
    }
}
