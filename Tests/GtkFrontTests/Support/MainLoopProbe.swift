import CGtk
import Foundation

/// Measures how long the main loop keeps a user waiting: from another thread it posts a
/// source at input-event priority every few milliseconds and records how late each one
/// runs. A main thread blocked for 80 ms shows as a wait of about 80 ms.
final class MainLoopProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var longest: Duration = .zero
    private var samples = 0
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in probe() }
        thread.name = "main-loop probe"
        thread.start()
    }

    /// The longest wait seen so far and how many probes ran.
    var result: (longest: Duration, samples: Int) {
        lock.withLock { (longest, samples) }
    }

    /// Ends the probing (waits for the probe in flight).
    func stop() -> (longest: Duration, samples: Int) {
        lock.withLock { running = false }
        finished.wait()
        return result
    }

    /// The probe in flight: set by the probe thread, answered on the main thread, both under
    /// the lock (GLib's own hand-over is invisible to ThreadSanitizer).
    private var pending: DispatchSemaphore?

    private func answer() {
        lock.withLock { pending }?.signal()
    }

    private func probe() {
        defer { finished.signal() }
        while lock.withLock({ running }) {
            let answered = DispatchSemaphore(value: 0)
            lock.withLock { pending = answered }
            let posted = ContinuousClock.now
            g_idle_add_full(G_PRIORITY_DEFAULT, { data in
                guard let data else { return 0 }
                Unmanaged<MainLoopProbe>.fromOpaque(data).takeRetainedValue().answer()
                return 0
            }, Unmanaged.passRetained(self).toOpaque(), nil)
            // A test that stops pumping for good is not a blocked loop: give up waiting then.
            while answered.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                guard lock.withLock({ running }) else { return }
            }
            let waited = ContinuousClock.now - posted
            lock.withLock {
                longest = max(longest, waited)
                samples += 1
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}
