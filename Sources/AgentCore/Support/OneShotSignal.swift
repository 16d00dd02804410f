import Synchronization

/// Something that happens once (a process ended), which tasks can wait for, with a limit.
final class OneShotSignal: Sendable {
    private struct State {
        var fired = false
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Waits whose time ran out before they started waiting.
        var expired: Set<UInt64> = []
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

    /// Waits until it fires (true) or `limit` passes (false).
    func wait(upTo limit: Duration) async -> Bool {
        let key = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.resume(key, with: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if state.fired { return true }
                if state.expired.remove(key) != nil { return false }
                state.waiters[key] = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    private func resume(_ key: UInt64, with value: Bool) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: key) else {
                if !state.fired { state.expired.insert(key) }
                return CheckedContinuation<Bool, Never>?.none
            }
            return waiter
        }
        waiter?.resume(returning: value)
    }
}
