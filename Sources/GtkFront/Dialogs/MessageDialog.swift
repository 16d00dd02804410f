import AgentCore
import CGtk

/// A modal alert or question over a window — libadwaita's `AdwMessageDialog`, the same on
/// every GTK version: a heading, a body, an optional extra widget and buttons (responses).
/// It closes itself once answered.
@MainActor
final class MessageDialog {
    struct Response {
        let id: String
        let label: String
        var appearance = ADW_RESPONSE_DEFAULT
    }

    let window: UnsafeMutablePointer<GtkWidget>
    private var dialog: UnsafeMutablePointer<AdwMessageDialog> { window.cast() }

    /// Shows the dialog; `answered` runs once with the chosen response's id (`closeResponse`
    /// when it is dismissed with Escape).
    init(over parent: UnsafeMutablePointer<GtkWidget>, heading: String, body: String, responses: [Response],
         defaultResponse: String?, closeResponse: String, extra: UnsafeMutablePointer<GtkWidget>? = nil,
         answered: @escaping @MainActor (String) -> Void) {
        window = adw_message_dialog_new(parent.cast(), heading, body)
        SecondaryWindow.place(window, over: parent)
        let dialog: UnsafeMutablePointer<AdwMessageDialog> = window.cast()
        for response in responses {
            adw_message_dialog_add_response(dialog, response.id, response.label)
            adw_message_dialog_set_response_appearance(dialog, response.id, response.appearance)
        }
        if let defaultResponse { adw_message_dialog_set_default_response(dialog, defaultResponse) }
        adw_message_dialog_set_close_response(dialog, closeResponse)
        if let extra { adw_message_dialog_set_extra_child(dialog, extra) }
        MnemonicButton.nameByWords(in: window)
        Signals.connect(window.raw, "response") { (id: UnsafeMutableRawPointer?) in
            answered(id.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? closeResponse)
        }
        gtk_window_present(window.cast())
    }

    /// Asks before something that cannot be taken back: Cancel, the default, and `action`
    /// (“_Delete”) in the destructive style; `confirmed` runs with true only for `action`.
    convenience init(over parent: UnsafeMutablePointer<GtkWidget>, heading: String, body: String, confirming action: String,
                     confirmed: @escaping @MainActor (Bool) -> Void) {
        self.init(over: parent, heading: heading, body: body,
                  responses: [.init(id: "cancel", label: tr("_Cancel")), .init(id: "confirm", label: action, appearance: ADW_RESPONSE_DESTRUCTIVE)],
                  defaultResponse: "cancel", closeResponse: "cancel") { confirmed($0 == "confirm") }
    }

    /// The heading; it can change while the dialog is open (errors of another kind added).
    var heading: String {
        get { adw_message_dialog_get_heading(dialog).map { String(cString: $0) } ?? "" }
        set { adw_message_dialog_set_heading(dialog, newValue) }
    }

    /// The message; it can grow while the dialog is open (another error).
    var body: String {
        get { adw_message_dialog_get_body(dialog).map { String(cString: $0) } ?? "" }
        set { adw_message_dialog_set_body(dialog, newValue) }
    }

    /// Makes the response `id` available or not (Add while a form cannot be saved).
    func setEnabled(_ enabled: Bool, response id: String) {
        adw_message_dialog_set_response_enabled(dialog, id, enabled ? 1 : 0)
    }

    /// Takes the dialog away unanswered (the question no longer stands).
    func withdraw() {
        gtk_window_destroy(window.cast())
    }
}
