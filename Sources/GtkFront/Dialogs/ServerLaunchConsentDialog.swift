import AgentCore
import CGtk

/// Asks before an MCP server's program runs for the first time (or changed): the exact
/// command line in full, words worth a second look highlighted, the folder it runs in and
/// the names of the environment variables it sets (never their values, which may be
/// tokens). Cancel (also Escape) or Run; Run is remembered for exactly this command.
@MainActor
enum ServerLaunchConsentDialog {
    static let heading = tr("Run This Program?")

    static func show(over parent: UnsafeMutablePointer<GtkWidget>, config: MCPServerConfig,
                     answered: @escaping @MainActor (Consent) -> Void) -> MessageDialog {
        let body = tr("The MCP server “%s” would run this command with your rights. Only allow programs you trust.", config.name)
        return MessageDialog(over: parent, heading: heading, body: body,
                             responses: [.init(id: "cancel", label: tr("_Cancel")),
                                         .init(id: "run", label: tr("_Run"), appearance: ADW_RESPONSE_DESTRUCTIVE)],
                             defaultResponse: "cancel", closeResponse: "cancel", extra: details(of: config)) { id in
            answered(id == "run" ? .allowAlways : .deny)
        }
    }

    /// How risky words are set off: bold, in the style's error colour, on a tint of it.
    static var highlight: String {
        let dark = adw_style_manager_get_dark(adw_style_manager_get_default()) != 0
        let colour = dark ? "#ff7b63" : "#c01c28"
        return "weight=\"bold\" foreground=\"\(colour)\" background=\"\(colour)\" bgalpha=\"16%\""
    }

    private static func details(of config: MCPServerConfig) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        let commandLine = config.commandLine ?? ""
        let command = MonospaceBlock.make(text: commandLine, markup: RiskyCommandWords.markup(commandLine, spanAttributes: highlight),
                                          maxHeight: 240, accessibleName: tr("Command line"))
        gtk_box_append(box.cast(), command.card)
        if !RiskyCommandWords.ranges(in: commandLine).isEmpty {
            gtk_box_append(box.cast(), MonospaceBlock.caption(
                tr("Highlighted: words that gain more rights, delete or overwrite, run text as a program, or reach system files or your keys."), classes: "warning"))
        }
        guard case .stdio(_, _, let environment, let folder) = config.transport else { return box }
        if let folder {
            let label = MonospaceBlock.caption("")
            gtk_label_set_markup(label.opaque, tr("In the folder %s", "<tt>\(PangoMarkup.escape(folder))</tt>"))
            gtk_box_append(box.cast(), label)
        }
        if !environment.isEmpty {
            let names = environment.map { variable in
                let name = "<tt>\(PangoMarkup.escape(variable.name))</tt>"
                return RiskyCommandWords.isRisky(variable: variable.name) ? "<span \(highlight)>\(name)</span>" : name
            }
            let label = MonospaceBlock.caption("")
            gtk_label_set_markup(label.opaque, trn("It sets the environment variable %s (values not shown).",
                                                  "It sets the environment variables %s (values not shown).", names.count,
                                                  names.joined(separator: tr(", "))))
            gtk_box_append(box.cast(), label)
        }
        return box
    }
}
