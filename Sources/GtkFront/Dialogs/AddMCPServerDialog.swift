import AgentCore
import CGtk

/// "Add MCP Server": a small form in a message dialog — a name, a command or URL, and what
/// goes with it (arguments and environment for a command; headers and an Authorization
/// value for a URL). Add stays off until the form can be saved (a message dialog closes
/// on any response); what stands in the way shows under the form once its field was typed in.
@MainActor
final class AddMCPServerDialog {
    static let heading = tr("Add MCP Server")

    /// The form's widgets, read when Add is chosen.
    struct Fields {
        let name: UnsafeMutablePointer<GtkWidget>
        let target: UnsafeMutablePointer<GtkWidget>
        let arguments: UnsafeMutablePointer<GtkWidget>
        let authorization: UnsafeMutablePointer<GtkWidget>
        let environment: UnsafeMutablePointer<GtkWidget>
        let headers: UnsafeMutablePointer<GtkWidget>

        @MainActor var form: MCPServerForm {
            MCPServerForm(name: PreferenceRows.text(of: name), commandOrURL: PreferenceRows.text(of: target),
                          arguments: PreferenceRows.text(of: arguments),
                          environment: GtkText.contents(of: gtk_text_view_get_buffer(environment.cast())),
                          headers: GtkText.contents(of: gtk_text_view_get_buffer(headers.cast())),
                          authorization: PreferenceRows.text(of: authorization))
        }
    }

    let fields: Fields
    let dialog: MessageDialog
    private let environmentCard: UnsafeMutablePointer<GtkWidget>
    private let headersCard: UnsafeMutablePointer<GtkWidget>
    /// What stands in the way of Add.
    let problemLabel: UnsafeMutablePointer<GtkWidget>
    private let commandParts: [UnsafeMutablePointer<GtkWidget>]
    private let urlParts: [UnsafeMutablePointer<GtkWidget>]
    private let taken: [String]
    /// The fields the user typed in: their problems are worth saying.
    private var touched: Set<MCPServerForm.Field> = []

    /// `taken`: the servers' names; `form`: what to start with (an attempt that failed).
    /// `answered` runs once: with the form for Add, nil for Cancel.
    init(over parent: UnsafeMutablePointer<GtkWidget>, taken: [String], form: MCPServerForm = MCPServerForm(),
         answered: @escaping @MainActor (MCPServerForm?) -> Void) {
        self.taken = taken
        let rows: UnsafeMutablePointer<GtkWidget> = adw_preferences_group_new()
        let name = Self.entryRow(tr("Name"), text: form.name, in: rows)
        let target = Self.entryRow(tr("Command or URL"), text: form.commandOrURL, in: rows)
        let arguments = Self.entryRow(tr("Arguments"), text: form.arguments, in: rows)
        let authorization: UnsafeMutablePointer<GtkWidget> = adw_password_entry_row_new()
        adw_preferences_row_set_title(authorization.cast(), tr("Authorization (such as Bearer …)"))
        gtk_editable_set_text(authorization.opaque, form.authorization)
        adw_entry_row_set_activates_default(authorization.cast(), 1)
        PreferenceRows.add(authorization, to: rows)
        let environment = PreferenceRows.textArea(form.environment, label: tr("Environment variables"), height: 80, monospace: true)
        let headers = PreferenceRows.textArea(form.headers, label: tr("Headers"), height: 80, monospace: true)
        let formFields = Fields(name: name, target: target, arguments: arguments, authorization: authorization,
                                environment: environment.view, headers: headers.view)
        fields = formFields
        environmentCard = environment.card
        headersCard = headers.card

        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_widget_set_size_request(box, 400, -1)
        gtk_box_append(box.cast(), rows)
        let environmentCaption = MonospaceBlock.caption(tr("Environment: NAME=value, one a line."), classes: "dim-label")
        let headersCaption = MonospaceBlock.caption(tr("Headers: Name: value, one a line. Authorization, token and key values are kept in your keyring, not in the file."), classes: "dim-label")
        for widget in [environmentCaption, environment.card, headersCaption, headers.card] {
            gtk_box_append(box.cast(), widget)
        }
        gtk_widget_set_margin_top(environmentCaption, 6)
        gtk_widget_set_margin_top(headersCaption, 6)
        problemLabel = MonospaceBlock.caption("", classes: "error")
        gtk_widget_set_margin_top(problemLabel, 6)
        gtk_box_append(box.cast(), problemLabel)
        commandParts = [arguments, environmentCaption, environment.card]
        urlParts = [authorization, headersCaption, headers.card]

        dialog = MessageDialog(over: parent, heading: Self.heading,
                               body: tr("A program on this computer, or a server on the web, that gives the model more tools."),
                               responses: [.init(id: "cancel", label: tr("_Cancel")),
                                           .init(id: "add", label: tr("_Add"), appearance: ADW_RESPONSE_SUGGESTED)],
                               defaultResponse: "add", closeResponse: "cancel", extra: box) { id in
            answered(id == "add" ? formFields.form : nil)
        }
        let watched: [(UnsafeMutablePointer<GtkWidget>, MCPServerForm.Field)] = [
            (name, .name), (target, .commandOrURL), (arguments, .arguments), (authorization, .headers),
        ]
        for (widget, field) in watched {
            Signals.connect(widget.raw, "changed") { [weak self] in self?.edited(field) }
        }
        for (view, field) in [(environment.view, MCPServerForm.Field.environment), (headers.view, .headers)] {
            Signals.connect(UnsafeMutableRawPointer(gtk_text_view_get_buffer(view.cast())), "changed") { [weak self] in
                self?.edited(field)
            }
        }
        // A form brought back after a failure shows its problem at once.
        if form != MCPServerForm() { touched = [.name, .commandOrURL, .arguments, .environment, .headers] }
        check()
        gtk_widget_grab_focus(name)
    }

    private func edited(_ field: MCPServerForm.Field) {
        touched.insert(field)
        check()
    }

    /// Shows the parts for a command or for a URL, and whether (and why not) Add is possible.
    private func check() {
        let form = fields.form
        for part in commandParts { gtk_widget_set_visible(part, form.isURL ? 0 : 1) }
        for part in urlParts { gtk_widget_set_visible(part, form.isURL ? 1 : 0) }
        let problem = form.problem(taken: taken)
        dialog.setEnabled(problem == nil, response: "add")
        let shown = problem.flatMap { touched.contains($0.field) ? $0 : nil }
        gtk_label_set_text(problemLabel.opaque, shown?.message ?? "")
        gtk_widget_set_visible(problemLabel, shown == nil ? 0 : 1)
        let marked: [MCPServerForm.Field: UnsafeMutablePointer<GtkWidget>] = [
            .name: fields.name, .commandOrURL: fields.target, .arguments: fields.arguments,
            .environment: environmentCard, .headers: headersCard,
        ]
        for (field, widget) in marked {
            if shown?.field == field { gtk_widget_add_css_class(widget, "error") } else { gtk_widget_remove_css_class(widget, "error") }
        }
    }

    private static func entryRow(_ title: String, text: String, in group: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let row: UnsafeMutablePointer<GtkWidget> = adw_entry_row_new()
        adw_preferences_row_set_use_markup(row.cast(), 0)
        adw_preferences_row_set_title(row.cast(), title)
        gtk_editable_set_text(row.opaque, text)
        adw_entry_row_set_activates_default(row.cast(), 1)
        PreferenceRows.add(row, to: group)
        return row
    }
}
