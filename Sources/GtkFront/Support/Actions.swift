import Glibc
import CGtk

/// Named actions (`app.quit`, `win.stop`) — the single path for commands that menus,
/// buttons and keyboard shortcuts share.
@MainActor
enum Actions {
    /// Adds a parameterless action called `name` to `map` (an application or window).
    static func add(_ name: String, to map: UnsafeMutableRawPointer, _ handler: @escaping @MainActor () -> Void) {
        guard let action = g_simple_action_new(name, nil) else { return }
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { _ in handler() }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Binds keyboard accelerators to a detailed action name such as `app.quit`.
    static func setAccelerators(_ accelerators: [String], for action: String,
                                in application: UnsafeMutablePointer<GtkApplication>) {
        var strings = accelerators.map { strdup($0) }
        strings.append(nil)
        defer { strings.forEach { free($0) } }
        strings.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { list in
                gtk_application_set_accels_for_action(application, action, list.baseAddress)
            }
        }
    }
}
