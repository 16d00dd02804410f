import CGtk

/// GTK's C casts (`GTK_WINDOW(w)`, `G_OBJECT(w)`) and type checks (`GTK_IS_LABEL(w)`) are
/// macros; these are their Swift forms.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The same object seen as another GTK type with a public struct.
    func cast<Target>(to type: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Target.self)
    }

    /// The same object as an opaque pointer, for GTK types with private structs (GtkLabel, GtkBox…).
    var opaque: OpaquePointer { OpaquePointer(self) }

    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }

    /// Whether the widget is a `type` (a GType such as `gtk_button_get_type()`) or derives from one.
    func isA(_ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(self).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }
}
