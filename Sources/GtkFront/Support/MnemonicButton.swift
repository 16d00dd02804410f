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

    /// Names the mnemonic buttons libadwaita made inside `root` (a message dialog's
    /// responses, a toast's button) as `make` names its own.
    static func nameByWords(in root: UnsafeMutablePointer<GtkWidget>) {
        if root.isA(gtk_button_get_type()), gtk_button_get_use_underline(root.cast()) != 0 {
            gtk_accessible_reset_property(OpaquePointer(root), GTK_ACCESSIBLE_PROPERTY_LABEL)
        }
        var child = gtk_widget_get_first_child(root)
        while let current = child {
            nameByWords(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// Gives `button` another mnemonic label, named as `make` names it.
    static func setLabel(_ button: UnsafeMutablePointer<GtkWidget>, _ label: String) {
        gtk_button_set_label(button.cast(), label)
        gtk_accessible_reset_property(OpaquePointer(button), GTK_ACCESSIBLE_PROPERTY_LABEL)
    }
}
