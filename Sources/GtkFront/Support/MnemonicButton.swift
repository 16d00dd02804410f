import CGtk

/// A button labelled with a mnemonic ("_Save": Alt+S). GTK 4.8 names a button for screen
/// readers by its label property and then its label's text, and sets the property to the raw
/// label ("_Save Save"); without the property the name is the text alone.
@MainActor
enum MnemonicButton {
    static func make(_ label: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_with_mnemonic(label)
        gtk_accessible_reset_property(OpaquePointer(button), GTK_ACCESSIBLE_PROPERTY_LABEL)
        return button
    }

    /// Gives `button` another mnemonic label, named as `make` names it.
    static func setLabel(_ button: UnsafeMutablePointer<GtkWidget>, _ label: String) {
        gtk_button_set_label(button.cast(), label)
        gtk_accessible_reset_property(OpaquePointer(button), GTK_ACCESSIBLE_PROPERTY_LABEL)
    }
}
