import Dispatch
import FoundationEssentials
import Synchronization

/// Saves a growing reply as it streams, at most about once a second: an update saves at
/// once if the last save is a second old, or else makes sure a save happens when the
/// second is up, so a crash loses at most the last second. `finish` saves at once.
public final class ReplyRecorder: Sendable {
    private struct State {
        var pending: (message: ChatMessage, seq: Int)?
        var lastSave = ContinuousClock.now - .seconds(60)
        var scheduled = false
        var finished = false
    }

    private let store: ChatStore
    private let chat: UUID
    private let interval: Duration
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "agent.reply-recorder")

    public init(store: ChatStore, chat: UUID, interval: Duration = .seconds(1)) {
        self.store = store
        self.chat = chat
        self.interval = interval
    }

    /// From any thread.
    public func update(_ message: ChatMessage, seq: Int) {
        let action = state.withLock { state -> (save: Bool, scheduleAfter: Duration?) in
            guard !state.finished else { return (false, nil) }
            state.pending = (message, seq)
            let elapsed = ContinuousClock.now - state.lastSave
            if elapsed >= interval { return (true, nil) }
            if state.scheduled { return (false, nil) }
            state.scheduled = true
            return (false, interval - elapsed)
        }
        if action.save {
            savePending()
        } else if let delay = action.scheduleAfter {
            queue.asyncAfter(deadline: .now() + .milliseconds(delay.milliseconds)) { [self] in
                state.withLock { $0.scheduled = false }
                savePending()
            }
        }
    }

    /// The final state: saved now; later updates are ignored.
    public func finish(_ message: ChatMessage, seq: Int) {
        state.withLock { state in
            state.finished = true
            state.pending = (message, seq)
        }
        savePending()
    }

    /// Saves under the lock, so an older state can never land after a newer one.
    private func savePending() {
        state.withLock { state in
            guard let pending = state.pending else { return }
            state.pending = nil
            state.lastSave = .now
            try? store.save(pending.message, in: chat, seq: pending.seq)
        }
    }
}
