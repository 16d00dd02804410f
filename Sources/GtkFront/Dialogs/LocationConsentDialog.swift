import AgentCore
import CGtk

/// Asks whether the model may learn where the user is: Deny, Allow Once, Always Allow.
@MainActor
enum LocationConsentDialog {
    static let heading = "Share your location?"
    static let buttons = ["Deny", "Allow Once", "Always Allow"]
    static let answers: [LocationConsent] = [.deny, .allowOnce, .allowAlways]

    @discardableResult
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, modelName: String,
                     answered: @escaping @MainActor (LocationConsent) -> Void) -> UnsafeMutablePointer<GtkWindow>? {
        let message = "\(modelName) wants to use the get_location tool. Agent would send your latitude and "
            + "longitude to the model. You can change this later in the settings."
        return Dialog.show(over: parent, isError: false, heading: heading, message: message, buttons: buttons,
                           defaultIndex: 0, cancelIndex: 0) { index in
            answered(answers.indices.contains(index) ? answers[index] : .deny)
        }
    }
}
