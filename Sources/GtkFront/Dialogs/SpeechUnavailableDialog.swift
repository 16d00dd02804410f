import AgentCore
import CGtk

/// Why a reply could not be read aloud: the desktop's speech service, speech-dispatcher, is
/// not there (or its client library), and the command that installs it with a voice.
@MainActor
enum SpeechUnavailableDialog {
    static let command = "sudo apt install speech-dispatcher espeak-ng"

    /// Shows the alert over `parent`, libspeechd's own `reason` under the command; `closed` runs
    /// once it is dismissed.
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, reason: String,
                     closed: @escaping @MainActor () -> Void) -> MessageDialog {
        let (card, _) = MonospaceBlock.make(text: command, accessibleName: tr("Command"))
        let details: UnsafeMutablePointer<GtkWidget> = gtk_label_new(tr("Details: %s", reason))
        gtk_label_set_wrap(details.opaque, 1)
        gtk_label_set_wrap_mode(details.opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(details.opaque, 0)
        gtk_label_set_selectable(details.opaque, 1)
        GtkText.addClasses(details, "dim-label", "caption")
        let extra: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_box_append(extra.cast(), card)
        gtk_box_append(extra.cast(), details)
        return MessageDialog(over: parent, heading: tr("Reading Aloud Needs the Speech Service"),
                             body: tr("Agent reads replies aloud through the desktop’s speech service, speech-dispatcher, which could not be started. Install it with a voice, for example:"),
                             responses: [.init(id: "ok", label: tr("_OK"))], defaultResponse: "ok", closeResponse: "ok",
                             extra: extra) { _ in closed() }
    }
}
