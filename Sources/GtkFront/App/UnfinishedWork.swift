import CGtk

/// Writes the user asked for that finish on a task: a key into the keyring, a server into
/// `mcp.json`. Each holds the application while it runs, so closing the last window does not
/// end the app under it. Quitting waits for them too, up to a limit, with the windows already
/// hidden, so a key saved just before Ctrl+Q is not lost.
@MainActor
enum UnfinishedWork {
    private static var running = 0
    private static var whenDone: [@MainActor () -> Void] = []

    static var isRunning: Bool { running > 0 }

    /// Runs `work` on a task the app does not end before.
    static func run(_ work: @escaping @MainActor () async -> Void) {
        let application = g_application_get_default()
        if let application { g_application_hold(application) }
        running += 1
        Task {
            await work()
            running -= 1
            if let application { g_application_release(application) }
            guard running == 0 else { return }
            let waiting = whenDone
            whenDone = []
            for then in waiting { then() }
        }
    }

    /// Calls `then` at once when no work runs; otherwise when the last ends, or after `limit`
    /// if that comes first.
    static func finish(within limit: Duration, then: @escaping @MainActor () -> Void) {
        guard running > 0 else { return then() }
        var called = false
        let once: @MainActor () -> Void = {
            guard !called else { return }
            called = true
            then()
        }
        whenDone.append(once)
        Task {
            try? await Task.sleep(for: limit)
            once()
        }
    }
}
