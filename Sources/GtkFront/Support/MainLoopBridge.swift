import Glibc
import CGtk
import FoundationEssentials

/// Lets Swift's main queue — and with it the main actor — run under GLib's main loop.
/// While `g_application_run` owns the main thread nothing else drains libdispatch's main
/// queue, so `Task { @MainActor in … }` would never run. This watches the queue's wake-up
/// file descriptor from GLib and drains the queue when it fires, as Foundation's run loop
/// does; it costs nothing while idle.
@MainActor
enum MainLoopBridge {
    private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        let descriptor = _dispatch_get_main_queue_handle_4CF()
        g_unix_fd_add(descriptor, G_IO_IN, { descriptor, _, _ in
            var counter: UInt64 = 0
            _ = read(descriptor, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return 1  // G_SOURCE_CONTINUE
        }, nil)
    }
}
