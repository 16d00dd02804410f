import Dispatch
import Synchronization

/// Something that happens once (a process ended), which tasks can wait for, with a limit.
final class OneShotSignal: Sendable {
    private struct State {
        var fired = false
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    var hasFired: Bool { state.withLock { $0.fired } }

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Waits until it fires (true) or `limit`, if any, passes (false).
    func wait(upTo limit: Duration?) async -> Bool {
        await withCheckedContinuation { continuation in
            let key = state.withLock { state -> UInt64? in
                guard !state.fired else { return nil }
                defer { state.nextWaiter += 1 }
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let key else {
                continuation.resume(returning: true)
                return
            }
            guard let limit else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(limit.milliseconds)) { [self] in
                state.withLock { $0.waiters.removeValue(forKey: key) }?.resume(returning: false)
            }
        }
    }
}
