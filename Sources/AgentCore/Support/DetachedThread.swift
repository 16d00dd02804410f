#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for blocking work (a transfer's poll loop, GDBus calls, spawning
/// children), without Foundation's `Thread`: the closure runs once, then the thread ends.
enum DetachedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func start(_ run: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, body)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Body>.fromOpaque(body).release()
            run()  // no thread to be had: run here rather than not at all
        }
    }
}
