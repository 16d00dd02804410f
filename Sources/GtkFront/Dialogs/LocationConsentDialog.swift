import AgentCore
import CGtk

/// Asks whether the model may learn where the user is: Deny, Allow Once, Always Allow.
@MainActor
enum LocationConsentDialog {
    static let heading = tr("Share Your Location?")
    /// Deny · Allow Once · Always Allow, as every consent question offers them.
    static let answers: [(id: String, label: String, consent: Consent)] = [
        ("deny", tr("_Deny"), .deny), ("once", tr("Allow _Once"), .allowOnce), ("always", tr("_Always Allow"), .allowAlways),
    ]

    static func show(over parent: UnsafeMutablePointer<GtkWidget>, modelName: String,
                     answered: @escaping @MainActor (Consent) -> Void) -> MessageDialog {
        let body = tr("%s wants to use the get_location tool. Agent would send your latitude and longitude to the model. “Always Allow” can be taken back in Preferences › Tools.",
                      modelName)
        return MessageDialog(over: parent, heading: heading, body: body,
                             responses: answers.map { .init(id: $0.id, label: $0.label) },
                             defaultResponse: "deny", closeResponse: "deny") { id in
            answered(answers.first { $0.id == id }?.consent ?? .deny)
        }
    }
}
