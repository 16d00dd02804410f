import AgentCore
import CGtk

/// Agent already running: a later launch hands it its command line and ends with its
/// answer, before opening anything of its own (opening the chat database would settle the
/// running instance's reply in flight as if it had crashed).
public enum RunningInstance {
    /// The status the running Agent answered this process's command line with; nil when no
    /// Agent runs (or there is no session bus) and this process is to become it.
    public static func forward(applicationID: String = AppIdentity.applicationID) -> Int32? {
        guard let probe = g_application_new(applicationID, G_APPLICATION_HANDLES_COMMAND_LINE) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(probe)) }
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(probe, nil, &error) != 0 else {
            g_clear_error(&error)
            return nil
        }
        // Registered as the primary instead: unreferenced, it gives the name back for the app.
        guard g_application_get_is_remote(probe) != 0 else { return nil }
        return g_application_run(probe, CommandLine.argc, CommandLine.unsafeArgv)
    }
}
