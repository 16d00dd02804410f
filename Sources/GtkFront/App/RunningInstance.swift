import AgentCore
import CGtk

/// Agent already running: a later launch hands it its command line and ends with its
/// answer, before opening anything of its own (opening the chat database would settle the
/// running instance's reply in flight as if it had crashed).
public enum RunningInstance {
    /// The status the running Agent answered this process's command line with; nil when no
    /// Agent runs (or there is no session bus) and this process is to become it.
    ///
    /// Whether one runs is asked of the bus, not found by taking the name: a probe that took
    /// it would give it back before this process's application took it again, and a launch
    /// in between would find no Agent and become a second one.
    public static func forward(applicationID: String = AppIdentity.applicationID) -> Int32? {
        guard nameHasOwner(applicationID) else { return nil }
        guard let probe = g_application_new(applicationID, G_APPLICATION_HANDLES_COMMAND_LINE) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(probe)) }
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(probe, nil, &error) != 0 else {
            g_clear_error(&error)
            return nil
        }
        // The running one ended since: unreferenced, the probe gives the name back for the app.
        guard g_application_get_is_remote(probe) != 0 else { return nil }
        return g_application_run(probe, CommandLine.argc, CommandLine.unsafeArgv)
    }

    /// Whether some process owns `name` on the session bus; false without a session bus.
    private static func nameHasOwner(_ name: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var argument = [g_variant_new_string(name)]
        let parameters = argument.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        let replyType = g_variant_type_new("(b)")
        defer { g_variant_type_free(replyType) }
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "NameHasOwner", parameters, replyType, G_DBUS_CALL_FLAGS_NONE, -1, nil,
                                                      &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_variant_unref(reply) }
        guard let owned = g_variant_get_child_value(reply, 0) else { return false }
        defer { g_variant_unref(owned) }
        return g_variant_get_boolean(owned) != 0
    }
}
