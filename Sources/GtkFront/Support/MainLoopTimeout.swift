import AgentCore
import CGtk

/// Runs a closure once on the main loop after a delay (a GLib timeout source), unless
/// cancelled first.
@MainActor
final class MainLoopTimeout {
    private final class Pending {
        let action: @MainActor () -> Void
        var done = false
        init(_ action: @escaping @MainActor () -> Void) { self.action = action }
    }

    private let pending: Pending
    private let source: guint

    init(after delay: Duration, _ action: @escaping @MainActor () -> Void) {
        pending = Pending(action)
        let fire: GSourceFunc = { data in
            guard let data else { return 0 }
            let pending = Unmanaged<Pending>.fromOpaque(data).takeUnretainedValue()
            pending.done = true
            MainActor.assumeIsolated { pending.action() }
            return 0  // G_SOURCE_REMOVE
        }
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<Pending>.fromOpaque(data).release()
        }
        source = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(delay.milliseconds), fire,
                                    Unmanaged.passRetained(pending).toOpaque(), release)
    }

    /// Drops the closure if it has not run yet.
    func cancel() {
        guard !pending.done else { return }
        pending.done = true
        g_source_remove(source)
    }
}
