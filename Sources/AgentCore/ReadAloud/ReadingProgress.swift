import FoundationEssentials

/// Which reply is being read and which word, worked out from the speech service's reports:
/// reports about an earlier request are stale, and those that come before the service has
/// said which message it made of the latest one wait for it (its thread can outrun the reply).
struct ReadingProgress {
    private(set) var state: ReadAloud.State = .idle
    private(set) var text: SpokenText?
    /// The latest request; reports about earlier ones are stale.
    private(set) var request = 0
    /// The service's id for the latest request, once it has said.
    private var message: Int?
    private var early: [SpeechEvent] = []

    var messageID: UUID? {
        if case .reading(let id, _) = state { return id }
        return nil
    }

    /// Starts reading `text` for message `messageID`; the request's number.
    mutating func start(_ text: SpokenText, messageID: UUID) -> Int {
        reset()
        self.text = text
        state = .reading(messageID: messageID, word: nil)
        return request
    }

    mutating func stop() {
        reset()
        state = .idle
    }

    private mutating func reset() {
        request += 1
        message = nil
        early = []
        text = nil
    }

    mutating func take(_ event: SpeechEvent) {
        guard case .reading(let id, _) = state else { return }
        switch event {
        case .queued(let queued, let message):
            guard queued == request else { return }
            self.message = message
            let waiting = early
            early = []
            for report in waiting where report.message == message { take(report) }
        case .failed(let failed, let reason):
            guard failed == request else { return }
            reset()
            state = .unavailable(reason: reason)
        case .begin, .mark, .end, .cancel:
            guard let message else {
                // Bounded: a message reports a few times a word.
                if early.count < 100_000 { early.append(event) }
                return
            }
            guard event.message == message else { return }
            switch event {
            case .mark(_, let name):
                if let index = text?.wordIndex(forMark: name) { state = .reading(messageID: id, word: index) }
            case .end, .cancel:
                stop()
            case .begin, .queued, .failed:
                break
            }
        }
    }
}
