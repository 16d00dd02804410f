import FoundationEssentials

/// Reading replies aloud through the desktop's speech service: one reply at a time (reading
/// another stops the first), following the word being spoken. Views observe `state`; the
/// service's reports reach the main actor in batches.
@MainActor
public final class ReadAloud {
    public enum State: Sendable, Equatable {
        case idle
        /// Reading message `messageID`; `word` indexes `text.words` once the voice has reached one.
        case reading(messageID: UUID, word: Int?)
        /// The last request could not be read: the speech service is unavailable, and why.
        case unavailable(reason: String)
    }

    public var state: State { progress.state }
    /// What is being read.
    public var text: SpokenText? { progress.text }

    private var progress = ReadingProgress() {
        didSet {
            if progress.state != oldValue.state { for observer in observers.values { observer(progress.state) } }
        }
    }
    private var client: SpeechDispatcherClient?
    private let address: SpeechAddress
    private let language: String
    private var observers: [Int: (State) -> Void] = [:]
    private var nextObserver = 0

    public init(address: SpeechAddress = .desktop, language: String = SpeechLanguage.current) {
        self.address = address
        self.language = language
    }

    /// Registers a handler for every change of `state`; returns what `stopObserving` takes
    /// when the observer goes (the app outlives its windows).
    @discardableResult
    public func observe(_ handler: @escaping (State) -> Void) -> Int {
        defer { nextObserver += 1 }
        observers[nextObserver] = handler
        return nextObserver
    }

    public func stopObserving(_ observer: Int) {
        observers[observer] = nil
    }

    /// The message being read, if any.
    public var readingMessageID: UUID? { progress.messageID }

    /// The word being spoken, if any.
    public var currentWord: SpokenText.Word? {
        guard case .reading(_, let index?) = state, let text, text.words.indices.contains(index) else { return nil }
        return text.words[index]
    }

    /// Reads `text`, the words of message `messageID`, stopping what is being read.
    public func read(_ text: SpokenText, messageID: UUID) {
        if readingMessageID != nil { speech().cancel() }
        guard !text.isEmpty else {
            progress.stop()
            return
        }
        let request = progress.start(text, messageID: messageID)
        speech().speak(text.ssml, request: request)
    }

    /// Stops reading.
    public func stop() {
        guard readingMessageID != nil else { return }
        speech().cancel()
        progress.stop()
    }

    /// Stops reading before returning and lets the service go (the app is ending).
    public func shutDown() {
        client?.closeNow()
        client = nil
        if readingMessageID != nil { progress.stop() }
    }

    private func speech() -> SpeechDispatcherClient {
        if let client { return client }
        // A batch of reports moves the state once: the views follow the last word.
        let relay = MainActorRelay<SpeechEvent> { [weak self] events in
            guard let self else { return }
            var moved = progress
            for event in events { moved.take(event) }
            progress = moved
        }
        let made = SpeechDispatcherClient(address: address, language: language) { relay.push($0) }
        client = made
        return made
    }
}
