import Synchronization

/// Carries events from a background thread to the main actor, merging bursts: events
/// pushed while a delivery is already scheduled ride along with it, so a fast stream
/// costs one main-thread wake-up per batch rather than one per token.
public final class MainActorRelay<Event: Sendable>: Sendable {
    private struct State {
        var pending: [Event] = []
        var scheduled = false
    }

    private let state = Mutex(State())
    private let deliver: @MainActor @Sendable ([Event]) -> Void

    public init(deliver: @escaping @MainActor @Sendable ([Event]) -> Void) {
        self.deliver = deliver
    }

    /// From any thread.
    public func push(_ event: Event) {
        let schedule = state.withLock { state -> Bool in
            state.pending.append(event)
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule {
            Task { @MainActor in self.flush() }
        }
    }

    /// Delivers whatever is pending now (also called when the stream has ended, so nothing
    /// is left behind a scheduled delivery).
    @MainActor
    public func flush() {
        let events = state.withLock { state -> [Event] in
            state.scheduled = false
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        if !events.isEmpty { deliver(events) }
    }
}
