import AgentCore
import CGtk
import FoundationEssentials

/// Opens a file in the app the desktop chooses for it (a text editor for a log), through
/// GIO: the launch context makes the app start on this display with startup notification.
@MainActor
enum DefaultApp {
    private final class Box {
        let failed: @MainActor (String) -> Void
        init(_ failed: @escaping @MainActor (String) -> Void) { self.failed = failed }
    }

    /// Opens `file`; `failed` runs with the reason if no app could open it.
    static func open(_ file: URL, from widget: UnsafeMutablePointer<GtkWidget>, failed: @escaping @MainActor (String) -> Void) {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(file.path, nil, &error) else {
            failed(error.map { String(cString: $0.pointee.message) } ?? file.path)
            g_clear_error(&error)
            return
        }
        defer { g_free(uri) }
        let context = gdk_display_get_app_launch_context(gtk_widget_get_display(widget))
        let finished: GAsyncReadyCallback = { _, result, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            if g_app_info_launch_default_for_uri_finish(result, &error) == 0 {
                let message = error.map { String(cString: $0.pointee.message) } ?? tr("no app opens it")
                g_clear_error(&error)
                MainActor.assumeIsolated { box.failed(message) }
            }
        }
        g_app_info_launch_default_for_uri_async(uri, UnsafeMutableRawPointer(context).map { $0.assumingMemoryBound(to: GAppLaunchContext.self) },
                                                nil, finished, Unmanaged.passRetained(Box(failed)).toOpaque())
        if let context { g_object_unref(UnsafeMutableRawPointer(context)) }
    }
}
