import AgentCore
import CGtk

/// A reply's tool calls in the order they came: each group of calls made at one point of the
/// reply (`ToolCall.textOffset`) under the text the model wrote before it ("Let me look
/// that up."), so the bubble reads as the reply was written. The text after the last group
/// is the reply body's own, streamed there.
@MainActor
final class ToolRounds {
    /// Calls made at one point of the reply, and the text since the group before.
    private struct Group {
        /// Where the calls were made in the reply's text (UTF-8 bytes, on a character's start).
        var offset: Int
        var count: Int
        /// The text before the calls (a slice of the reply's, let go before the reply grows
        /// again: held, it would make the next append copy the whole reply).
        var text: Substring
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    private(set) var lines: [ToolCallLine] = []
    /// The text before each group, rendered (empty ones have none), in order.
    private(set) var textWidgets: [UnsafeMutablePointer<GtkWidget>] = []
    private var markdown: MarkdownWidgets
    private var shownCalls: [ToolCall] = []
    private var shownStreaming = false
    /// The line shown waiting for the user's answer.
    private var shownAwaiting: Int?
    /// The groups shown, where each was made and how many calls it has (the text before a
    /// group never changes: a reply only grows), and the box holding each group's lines.
    private var shownGroups: [(offset: Int, count: Int, box: UnsafeMutablePointer<GtkWidget>)] = []

    init(copyCode: @escaping @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void) {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_visible(widget, 0)
        markdown = MarkdownWidgets(copyCode: copyCode)
    }

    var codeBlocks: [CodeBlockView] { markdown.codeBlocks }

    /// Shows `calls` and the parts of `text` before them (none when not `splittingText`: a
    /// reply too long for labels shows its text whole). Returns where the text after the
    /// last group begins (UTF-8 offset). `replyGoesOn`: a call without a result is running;
    /// `awaitingAnswer`: the one running (the last: a round's calls run one after another)
    /// waits for the user's answer to a consent question.
    func show(_ calls: [ToolCall], in text: String, replyGoesOn: Bool, splittingText: Bool, awaitingAnswer: Bool = false) -> Int {
        let groups = Self.groups(of: calls, in: text, splittingText: splittingText)
        let grows = shownGroups.count <= groups.count
            && zip(shownGroups, groups).allSatisfy { $0.offset == $1.offset && $0.count <= $1.count }
            && zip(shownGroups.dropLast(), groups).allSatisfy { $0.count == $1.count }
        if !grows { removeAll() }
        // Calls are only added, at the end: a line the user opened stays open.
        for (index, group) in groups.enumerated() {
            if index == shownGroups.count { addGroup(group) }
            while shownGroups[index].count < group.count {
                let line = ToolCallLine()
                gtk_box_append(shownGroups[index].box.cast(), line.widget)
                lines.append(line)
                shownGroups[index].count += 1
            }
        }
        // Only the lines whose call changed (a running tool's progress redraws its own line)
        // or that start or stop waiting for an answer; all of them when the reply starts or ends.
        let ended = replyGoesOn != shownStreaming
        let awaiting = awaitingAnswer && replyGoesOn ? calls.lastIndex { $0.result == nil } : nil
        for (index, (line, call)) in zip(lines, calls).enumerated()
        where ended || index >= shownCalls.count || shownCalls[index] != call || (awaiting != shownAwaiting && (index == awaiting || index == shownAwaiting)) {
            line.show(call, replyGoesOn: replyGoesOn, awaitingAnswer: index == awaiting)
        }
        shownCalls = calls
        shownStreaming = replyGoesOn
        shownAwaiting = awaiting
        gtk_widget_set_visible(widget, calls.isEmpty ? 0 : 1)
        return groups.last?.offset ?? 0
    }

    /// Forgets what it showed (the row now shows another message).
    func reset() {
        removeAll()
        shownCalls = []
        gtk_widget_set_visible(widget, 0)
    }

    /// Consecutive calls made at the same point of `text`, each group with the text since the
    /// one before. An offset is moved back to the start of the character it falls in (an
    /// imported chat may say anything).
    private static func groups(of calls: [ToolCall], in text: String, splittingText: Bool) -> [Group] {
        let utf8 = text.utf8
        var groups: [Group] = []
        for call in calls {
            let previous = groups.last?.offset ?? 0
            var offset = previous
            if splittingText, call.textOffset > previous {
                var index = utf8.index(utf8.startIndex, offsetBy: min(call.textOffset, utf8.count))
                while index.samePosition(in: text) == nil { utf8.formIndex(before: &index) }
                offset = max(utf8.distance(from: utf8.startIndex, to: index), previous)
            }
            if let last = groups.last, last.offset == offset {
                groups[groups.count - 1].count += 1
            } else {
                let start = utf8.index(utf8.startIndex, offsetBy: previous)
                let end = utf8.index(utf8.startIndex, offsetBy: offset)
                groups.append(Group(offset: offset, count: 1, text: Substring(utf8[start..<end])))
            }
        }
        return groups
    }

    /// Adds `group`'s text and an empty box for its lines.
    private func addGroup(_ group: Group) {
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
        gtk_box_append(widget.cast(), box)
        shownGroups.append((group.offset, 0, box))
    }

    private func removeAll() {
        while let child = gtk_widget_get_first_child(widget) { gtk_box_remove(widget.cast(), child) }
        lines = []
        textWidgets = []
        shownGroups = []
        shownCalls = []
        shownAwaiting = nil
        markdown = MarkdownWidgets(copyCode: markdown.copyCode)
    }
}
