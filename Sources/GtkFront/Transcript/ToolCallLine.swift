import AgentCore
import CGtk

/// One tool call inside a reply: a compact line (the tool, then its result, "running…",
/// "waiting for your answer…" while a consent question is open, or "not finished" once the
/// reply ended without it) that expands to show the arguments and the full result.
@MainActor
final class ToolCallLine {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let summary: UnsafeMutablePointer<GtkWidget>
    private let details: UnsafeMutablePointer<GtkWidget>

    init() {
        summary = gtk_label_new(nil)
        gtk_label_set_ellipsize(summary.opaque, PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(summary.opaque, 0)
        GtkText.addClasses(summary, "tool-summary")
        details = gtk_label_new(nil)
        gtk_label_set_wrap(details.opaque, 1)
        gtk_label_set_wrap_mode(details.opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(details.opaque, 0)
        gtk_label_set_selectable(details.opaque, 1)
        gtk_label_set_max_width_chars(details.opaque, StackedLabel.maxWidthChars)
        GtkText.addClasses(details, "tool-details")
        widget = gtk_expander_new(nil)
        gtk_expander_set_label_widget(widget.opaque, summary)
        gtk_expander_set_child(widget.opaque, details)
        GtkText.addClasses(widget, "tool-call")
    }

    /// The compact line's text (what a screen reader reads first).
    var summaryText: String { String(cString: gtk_label_get_text(summary.opaque)) }

    /// `replyGoesOn`: whether the reply is still under way, so a call without a result is
    /// running; `awaitingAnswer`: it waits for the user's answer to a consent question.
    func show(_ call: ToolCall, replyGoesOn: Bool, awaitingAnswer: Bool = false) {
        let serialized = call.arguments.serialized
        let arguments = call.arguments == .object([]) ? "" : serialized
        let outcome: String
        if let result = call.result {
            outcome = " → " + result.replacing("\n", with: " ")
        } else if replyGoesOn, awaitingAnswer {
            outcome = tr(" · waiting for your answer…")
        } else if replyGoesOn {
            outcome = call.progress.map { tr(" · running… %s", $0) } ?? tr(" · running…")
        } else {
            outcome = tr(" · not finished")
        }
        gtk_label_set_text(summary.opaque, tr("Tool %1$s(%2$s)%3$s", call.displayName, arguments, outcome))
        StackedLabel.setText((call.server.map { tr("Server: %s", $0) + "\n" } ?? "") + tr("Arguments: %1$s\nResult: %2$s", serialized,
            call.result ?? (replyGoesOn ? tr("(running)") : tr("(none: the reply ended first)"))), of: details)
        if call.failed {
            gtk_widget_add_css_class(widget, "failed")
        } else {
            gtk_widget_remove_css_class(widget, "failed")
        }
    }
}
