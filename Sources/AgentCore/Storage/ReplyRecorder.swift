import Dispatch
import FoundationEssentials
import Synchronization

/// Saves a growing reply as it streams, on a queue of its own, so the thread that streams
/// it (the window's) never waits for the database: a reply of megabytes takes SQLite and
/// its full-text index a tenth of a second and more to write. It saves at most about once
/// a second while the reply grows, so a crash loses at most the last second, and once more
/// when it ends. Saves land in the order they were asked for. A save that fails (a full
/// disk, a locked database) is reported to `onFailure`, on the recorder's queue.
///
/// While the reply grows the recorder keeps a copy of its own, changed as the owner's is
/// (`update`): holding the owner's message instead would share its text, and every append
/// to a shared text copies all of it, making a long reply cost quadratic time.
public final class ReplyRecorder: Sendable {
    private struct State {
        /// The recorder's copy of the growing reply, and its place in the chat.
        var reply: (message: ChatMessage, seq: Int)?
        /// `reply` has changed since it was last saved.
        var changed = false
        var lastSave = ContinuousClock.now - .seconds(60)
        var scheduled = false
        var finished = false
    }

    private let store: ChatStore
    /// The chat the reply belongs to.
    public let chat: UUID
    private let interval: Duration
    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let onFailure: @Sendable (any Error) -> Void

    /// `queue`: a serial queue to save on, which other writes to the store may share to
    /// stay in order with the reply's.
    public init(store: ChatStore, chat: UUID, interval: Duration = .seconds(1),
                queue: DispatchQueue = DispatchQueue(label: "agent.reply-recorder"),
                onFailure: @escaping @Sendable (any Error) -> Void) {
        self.store = store
        self.chat = chat
        self.interval = interval
        self.queue = queue
        self.onFailure = onFailure
    }

    /// The reply changed: `change` makes the same change to the recorder's copy, which starts
    /// as `starting` (the reply as it stands) the first time. From any thread; returns at once.
    public func update(seq: Int, starting: @autoclosure () -> ChatMessage, _ change: (inout ChatMessage) -> Void) {
        let delay = state.withLock { state -> Duration? in
            guard !state.finished else { return nil }
            if var reply = state.reply?.message {
                // Taken out while it changes, so its text is not shared and grows in place.
                state.reply = nil
                change(&reply)
                state.reply = (reply, seq)
            } else {
                state.reply = (starting(), seq)
            }
            state.changed = true
            guard !state.scheduled else { return nil }
            state.scheduled = true
            return max(.zero, interval - (ContinuousClock.now - state.lastSave))
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(delay.milliseconds)) { [self] in savePending() }
    }

    /// The final state, saved as soon as the queue gets to it; later updates are ignored.
    public func finish(_ message: ChatMessage, seq: Int) {
        state.withLock { state in
            state.finished = true
            state.reply = (message, seq)
            state.changed = true
        }
        queue.async { [self] in savePending() }
    }

    /// The reply came to nothing: a save still waiting is dropped (it must not bring the
    /// message back) and the message is deleted, after the saves before it.
    public func discard(_ id: UUID) {
        state.withLock { state in
            state.finished = true
            state.reply = nil
            state.changed = false
        }
        then { try $0.deleteMessage(id) }
    }

    /// Runs `body` on the store after the saves asked for so far, without waiting for them;
    /// an error it throws goes to `onFailure`.
    public func then(_ body: @escaping @Sendable (ChatStore) throws -> Void) {
        queue.async { [self] in
            do { try body(store) } catch { onFailure(error) }
        }
    }

    /// Waits until everything asked for so far is saved (before the chat is changed
    /// otherwise, on quitting, in tests).
    public func flush() {
        queue.sync { savePending() }
    }

    /// On the queue only, so an older state never lands after a newer one.
    private func savePending() {
        let pending = state.withLock { state -> (message: ChatMessage, seq: Int)? in
            state.scheduled = false
            guard state.changed, let reply = state.reply else { return nil }
            state.changed = false
            state.lastSave = .now
            // Once finished, nothing changes it again: the recorder lets go of it.
            if state.finished { state.reply = nil }
            return reply
        }
        guard let pending else { return }
        do {
            try store.save(pending.message, in: chat, seq: pending.seq)
        } catch {
            onFailure(error)
        }
    }
}
