import AgentCore
import CGtk

/// Asks whether the model may run a tool of an MCP server, showing what the tool is told
/// (its arguments) and what the server claims about it: Deny (also Escape), Allow Once,
/// Always Allow.
@MainActor
enum ToolCallConsentDialog {
    private static let answers = LocationConsentDialog.answers

    static func heading(for question: MCPToolCallQuestion) -> String {
        tr("Run “%s”?", question.tool.title)
    }

    static func show(over parent: UnsafeMutablePointer<GtkWidget>, modelName: String, question: MCPToolCallQuestion,
                     answered: @escaping @MainActor (Consent) -> Void) -> MessageDialog {
        var body = tr("%1$s wants to run a tool of the MCP server “%2$s”.", modelName, question.server)
        let description = question.tool.description.trimmed
        if !description.isEmpty { body += "\n\n" + description }
        return MessageDialog(over: parent, heading: heading(for: question), body: body,
                             responses: answers.map { .init(id: $0.id, label: $0.label) },
                             defaultResponse: "deny", closeResponse: "deny", extra: details(of: question)) { id in
            answered(answers.first { $0.id == id }?.consent ?? .deny)
        }
    }

    /// The arguments as indented JSON, the server's claims, and where "Always" is taken back.
    private static func details(of question: MCPToolCallQuestion) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        if question.arguments == .object([]) || question.arguments == .null {
            gtk_box_append(box.cast(), MonospaceBlock.caption(tr("It is given no arguments."), classes: "dim-label"))
        } else {
            gtk_box_append(box.cast(), MonospaceBlock.caption(tr("Arguments"), classes: "heading"))
            let arguments = MonospaceBlock.make(text: question.arguments.prettyPrinted, maxHeight: 220, accessibleName: tr("Arguments"))
            gtk_box_append(box.cast(), arguments.card)
        }
        let hints = question.tool.hints
        if !hints.isEmpty {
            let claims = (hints.map { tr("The server %s.", $0) } + [tr("This is its own claim; Agent cannot check it.")]).joined(separator: " ")
            let label = MonospaceBlock.caption(claims, classes: "dim-label")
            gtk_widget_set_margin_top(label, 6)
            gtk_box_append(box.cast(), label)
        }
        let takeBack = MonospaceBlock.caption(tr("“Always Allow” can be taken back in Preferences › Tools."), classes: "dim-label", "caption")
        gtk_widget_set_margin_top(takeBack, 6)
        gtk_box_append(box.cast(), takeBack)
        return box
    }
}
