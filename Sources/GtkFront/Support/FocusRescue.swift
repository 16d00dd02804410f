import CGtk

/// Keyboard focus in a list row that is about to be removed is moved somewhere sensible
/// first. Left to itself, GTK 4.8 moves it after the next frame from the removed widget,
/// and on the way (a selectable label taking the focus) reads that widget after freeing it.
@MainActor
enum FocusRescue {
    /// Whether the window's focus is in the list row `child` belongs to (the row's own
    /// list-item widget, which the keyboard focuses too, or anything in it).
    static func holdsFocus(rowOf child: UnsafeMutablePointer<GtkWidget>) -> Bool {
        holdsFocus(in: gtk_widget_get_parent(child) ?? child)
    }

    /// Whether the window's focus is `widget` or inside it.
    static func holdsFocus(in widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
        return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
    }
}
