import CGtk

/// A window over another — a dialog, Preferences, About: transient for it, modal, and one of
/// the application's windows, so that the app's shortcuts (Ctrl+Q) work there too.
@MainActor
enum SecondaryWindow {
    /// `destroyedWithParent`: false for a window something else holds a reference to (About,
    /// while it asks llama-server its version). GTK 4.8 destroys such a window with its parent
    /// but disposes it only when that reference goes, after the parent is freed, and the
    /// dispose then reads the freed parent.
    static func place(_ window: UnsafeMutablePointer<GtkWidget>, over parent: UnsafeMutablePointer<GtkWidget>,
                      destroyedWithParent: Bool = true) {
        gtk_window_set_transient_for(window.cast(), parent.cast())
        gtk_window_set_modal(window.cast(), 1)
        gtk_window_set_destroy_with_parent(window.cast(), destroyedWithParent ? 1 : 0)
        gtk_window_set_application(window.cast(), gtk_window_get_application(parent.cast()))
    }
}
