import CGtk

/// Runs a closure once after a delay, on the main loop (an undo notice fading out). Not a
/// polling timer: one shot, then gone; `cancel` drops it early.
@MainActor
final class OneShotTimer {
    private final class Box {
        let action: @MainActor () -> Void
        init(_ action: @escaping @MainActor () -> Void) { self.action = action }
    }

    private var source: guint = 0

    func start(seconds: UInt32, _ action: @escaping @MainActor () -> Void) {
        cancel()
        let box = Box { [weak self] in
            self?.source = 0
            action()
        }
        source = g_timeout_add_seconds_full(G_PRIORITY_DEFAULT, seconds, { data in
            guard let data else { return 0 }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.action() }
            return 0
        }, Unmanaged.passRetained(box).toOpaque(), { data in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).release()
        })
    }

    func cancel() {
        if source != 0 {
            g_source_remove(source)
            source = 0
        }
    }
}
