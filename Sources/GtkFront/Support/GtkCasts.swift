import CGtk

/// GTK's C casts (`GTK_WINDOW(w)`, `G_OBJECT(w)`) are macros; these are their Swift forms.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// The same object seen as another GTK type with a public struct.
    func cast<Target>(to type: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Target.self)
    }

    /// The same object as an opaque pointer, for GTK types with private structs (GtkLabel, GtkBox…).
    var opaque: OpaquePointer { OpaquePointer(self) }

    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}
