import CGtk

/// Writes the user asked for that finish on a task: a key into the keyring, a server into
/// `mcp.json`. Each holds its application while it runs; quitting waits for them, up to a
/// limit, with the windows already hidden, so that a key saved just before Ctrl+Q is not lost.
@MainActor
enum UnfinishedWork {
    /// One application's work running, and what waits for it to end.
    private final class Ledger {
        var running = 0
        var whenDone: [@MainActor () -> Void] = []
    }

    private static var ledgers: [UnsafeMutableRawPointer: Ledger] = [:]

    /// Runs `work` on a task that the application of `widget`'s window does not end before
    /// (a plain task when the widget is in no application's window).
    static func run(from widget: UnsafeMutablePointer<GtkWidget>, _ work: @escaping @MainActor () async -> Void) {
        guard let root = gtk_widget_get_root(widget).map({ UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }),
              root.isA(gtk_window_get_type()), let application = gtk_window_get_application(root.cast()) else {
            Task { await work() }
            return
        }
        let key = UnsafeMutableRawPointer(application)
        g_object_ref(key)
        let gApplication = key.assumingMemoryBound(to: GApplication.self)
        g_application_hold(gApplication)
        let ledger = ledgers[key] ?? Ledger()
        ledgers[key] = ledger
        ledger.running += 1
        Task {
            await work()
            ledger.running -= 1
            g_application_release(gApplication)
            if ledger.running == 0 {
                ledgers[key] = nil
                for then in ledger.whenDone { then() }
            }
            g_object_unref(key)
        }
    }

    static func isRunning(in application: UnsafeMutableRawPointer) -> Bool {
        (ledgers[application]?.running ?? 0) > 0
    }

    /// Calls `then` at once when `application` runs no work; otherwise when its last ends, or
    /// after `limit` if that comes first.
    static func finish(in application: UnsafeMutableRawPointer, within limit: Duration,
                       then: @escaping @MainActor () -> Void) {
        guard let ledger = ledgers[application], ledger.running > 0 else { return then() }
        var called = false
        var timeout: MainLoopTimeout?
        let once: @MainActor () -> Void = {
            guard !called else { return }
            called = true
            timeout?.cancel()
            timeout = nil
            then()
        }
        ledger.whenDone.append(once)
        timeout = MainLoopTimeout(after: limit, once)
    }
}
