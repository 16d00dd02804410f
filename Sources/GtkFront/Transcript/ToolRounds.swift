import AgentCore
import CGtk

/// A reply's tool calls in the order they came: each group of calls made at one point of the
/// reply (`ToolCall.textOffset`) under the text the model wrote before it ("Let me look
/// that up."), so the bubble reads as the reply was written. The text after the last group
/// is the reply body's own, streamed there.
@MainActor
final class ToolRounds {
    let widget: UnsafeMutablePointer<GtkWidget>
    private(set) var lines: [ToolCallLine] = []
    /// The text before each group, rendered (empty ones have none), in order.
    private(set) var textWidgets: [UnsafeMutablePointer<GtkWidget>] = []
    private var markdown: MarkdownWidgets
    private var shownCalls: [ToolCall] = []
    private var shownStreaming = false
    /// The groups shown: where each is in the reply's text and how many calls it has (the
    /// text before a group never changes: a reply only grows).
    private var shownGroups: [(offset: Int, count: Int)] = []

    init(copyCode: @escaping @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void) {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_visible(widget, 0)
        markdown = MarkdownWidgets(copyCode: copyCode)
    }

    var codeBlocks: [CodeBlockView] { markdown.codeBlocks }

    /// Shows `calls` and the parts of `text` before them (none when not `splittingText`: a
    /// reply too long for labels shows its text whole). Returns where the text after the
    /// last group begins (UTF-8 offset). `replyGoesOn`: a call without a result is running.
    func show(_ calls: [ToolCall], in text: String, replyGoesOn: Bool, splittingText: Bool) -> Int {
        let groups = Self.groups(of: calls, in: text, splittingText: splittingText)
        let regrouped = !groups.elementsEqual(shownGroups) { $0.offset == $1.offset && $0.count == $1.count }
        if regrouped { rebuild(groups) }
        // Only the lines whose call changed (a running tool's progress redraws its own line),
        // all of them when regrouped, or when the reply starts or ends.
        let ended = replyGoesOn != shownStreaming
        for (index, (line, call)) in zip(lines, calls).enumerated()
        where regrouped || ended || index >= shownCalls.count || shownCalls[index] != call {
            line.show(call, replyGoesOn: replyGoesOn)
        }
        shownCalls = calls
        shownStreaming = replyGoesOn
        gtk_widget_set_visible(widget, calls.isEmpty ? 0 : 1)
        return groups.last?.offset ?? 0
    }

    /// Consecutive calls made at the same point of `text`, each with the text since the group
    /// before (a slice of `text`, let go before the reply grows again: held, it would make
    /// the next append copy the whole reply).
    private static func groups(of calls: [ToolCall], in text: String, splittingText: Bool) -> [(offset: Int, count: Int, text: Substring)] {
        let utf8 = text.utf8
        var groups: [(offset: Int, count: Int, text: Substring)] = []
        for call in calls {
            let previous = groups.last?.offset ?? 0
            let offset = splittingText ? min(max(call.textOffset, previous), utf8.count) : 0
            if let last = groups.last, last.offset == offset {
                groups[groups.count - 1].count += 1
            } else {
                let start = utf8.index(utf8.startIndex, offsetBy: previous)
                let end = utf8.index(utf8.startIndex, offsetBy: offset)
                groups.append((offset, 1, Substring(utf8[start..<end])))
            }
        }
        return groups
    }

    private func rebuild(_ groups: [(offset: Int, count: Int, text: Substring)]) {
        while let child = gtk_widget_get_first_child(widget) { gtk_box_remove(widget.cast(), child) }
        lines = []
        textWidgets = []
        markdown = MarkdownWidgets(copyCode: markdown.copyCode)
        for group in groups {
            let blocks = MarkdownParser.parse(String(group.text))
            if !blocks.isEmpty {
                let column: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
                for block in markdown.widgets(for: blocks) {
                    gtk_box_append(column.cast(), block)
                    textWidgets.append(block)
                }
                gtk_box_append(widget.cast(), agent_reading_width_box_new(column, 0))
            }
            let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)
            for _ in 0..<group.count {
                let line = ToolCallLine()
                gtk_box_append(box.cast(), line.widget)
                lines.append(line)
            }
            gtk_box_append(widget.cast(), box)
        }
        shownGroups = groups.map { ($0.offset, $0.count) }
    }

    /// Forgets what it showed (the row now shows another message).
    func reset() {
        rebuild([])
        shownCalls = []
        gtk_widget_set_visible(widget, 0)
    }
}
