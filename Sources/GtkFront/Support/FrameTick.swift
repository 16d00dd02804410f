import CGtk

/// Runs a closure once, at the next frame of a widget's frame clock: how token updates
/// are coalesced to at most one layout per frame without any timer.
@MainActor
enum FrameTick {
    private final class Box {
        let action: @MainActor () -> Void
        init(_ action: @escaping @MainActor () -> Void) { self.action = action }
    }

    static func once(on widget: UnsafeMutablePointer<GtkWidget>, _ action: @escaping @MainActor () -> Void) {
        let callback: GtkTickCallback = { _, _, data in
            guard let data else { return 0 }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.action() }
            return 0  // G_SOURCE_REMOVE: one frame only
        }
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).release()
        }
        gtk_widget_add_tick_callback(widget, callback, Unmanaged.passRetained(Box(action)).toOpaque(), release)
    }
}
