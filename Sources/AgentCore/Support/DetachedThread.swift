#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for blocking work (a transfer's poll loop, GDBus calls, spawning
/// children, loading a library), without Foundation's `Thread`: the closure runs once, then
/// the thread ends.
public enum DetachedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    public static func start(_ run: @escaping @Sendable () -> Void) {
        if !tryStart(run) {
            run()  // no thread to be had: run here rather than not at all
        }
    }

    /// As `start`, but when no thread can be created `run` is not run and the answer is false
    /// (for work that never ends, which must not take the caller's thread).
    static func tryStart(_ run: @escaping @Sendable () -> Void) -> Bool {
        var thread = pthread_t()
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, body)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
