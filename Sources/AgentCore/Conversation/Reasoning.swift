import FoundationEssentials

/// What a reasoning model thought before it answered: shown apart from the answer, kept
/// with the message, never sent back to the model nor copied with the answer.
public struct Reasoning: Sendable, Equatable {
    public var text: String
    /// How long the model thought: from its first reasoning to the first text of its answer
    /// (or the reply's end). Nil while it still thinks.
    public var seconds: Double?
    /// When the first reasoning arrived, while the model thinks (not stored).
    var began: Date?

    public init(text: String, seconds: Double? = nil) {
        self.text = text
        self.seconds = seconds
    }

    /// Thinking that begins now, its text still to come.
    static func beginning(at time: Date = Date()) -> Reasoning {
        var reasoning = Reasoning(text: "")
        reasoning.began = time
        return reasoning
    }

    /// Whether the model is still thinking (no answer yet, reply not ended).
    public var isOngoing: Bool { seconds == nil }

    /// Ends the thinking now, if it was still going on.
    mutating func end(at time: Date = Date()) {
        guard seconds == nil else { return }
        seconds = max(0, time.timeIntervalSince(began ?? time))
        began = nil
    }

    /// "Thought for 1 second", "Thought for 12 seconds".
    public var durationText: String? {
        guard let seconds else { return nil }
        let whole = max(1, Int(seconds.rounded()))
        return trn("Thought for %d second", "Thought for %d seconds", whole)
    }

    public static func == (lhs: Reasoning, rhs: Reasoning) -> Bool {
        lhs.text == rhs.text && lhs.seconds == rhs.seconds
    }
}
