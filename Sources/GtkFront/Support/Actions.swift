import Glibc
import CGtk

/// Named actions (`app.quit`, `win.stop`) — the single path for commands that menus,
/// buttons and keyboard shortcuts share (their keys are in `Shortcuts`).
@MainActor
enum Actions {
    /// Adds a parameterless action called `name` to `map` (an application, a window or a
    /// group); returns it, to switch it on and off.
    @discardableResult
    static func add(_ name: String, to map: UnsafeMutableRawPointer, _ handler: @escaping @MainActor () -> Void) -> OpaquePointer? {
        guard let action = g_simple_action_new(name, nil) else { return nil }
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { (_: UnsafeMutableRawPointer?) in handler() }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }

    /// Adds an action called `name` that takes a string (`win.new-chat-from('…')`, a menu
    /// item's target) and hands it to `handler`.
    static func add(_ name: String, to map: UnsafeMutableRawPointer, taking handler: @escaping @MainActor (String) -> Void) {
        let stringType = g_variant_type_new("s")
        defer { g_variant_type_free(stringType) }
        guard let action = g_simple_action_new(name, stringType) else { return }
        Signals.connect(UnsafeMutableRawPointer(action), "activate") { (parameter: UnsafeMutableRawPointer?) in
            guard let parameter, let text = g_variant_get_string(OpaquePointer(parameter), nil) else { return }
            handler(String(cString: text))
        }
        g_action_map_add_action(OpaquePointer(map), action)
        g_object_unref(UnsafeMutableRawPointer(action))
    }

    /// Switches an action on or off (its buttons and menu items follow).
    static func setEnabled(_ enabled: Bool, _ name: String, in map: UnsafeMutableRawPointer) {
        guard let action = g_action_map_lookup_action(OpaquePointer(map), name) else { return }
        g_simple_action_set_enabled(action, enabled ? 1 : 0)
    }
}
