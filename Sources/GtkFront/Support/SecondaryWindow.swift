import CGtk

/// A window over another — a dialog, Preferences, About: transient for it, modal, destroyed
/// with it, and one of the application's windows, so that the app's shortcuts (Ctrl+Q) work
/// there too. Nothing may hold a reference to such a window past its destroy: GTK 4.8 would
/// dispose it after its parent is freed, and the dispose reads the freed parent.
@MainActor
enum SecondaryWindow {
    static func place(_ window: UnsafeMutablePointer<GtkWidget>, over parent: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_set_transient_for(window.cast(), parent.cast())
        gtk_window_set_modal(window.cast(), 1)
        gtk_window_set_destroy_with_parent(window.cast(), 1)
        gtk_window_set_application(window.cast(), gtk_window_get_application(parent.cast()))
    }
}
