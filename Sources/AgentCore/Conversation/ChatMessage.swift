import FoundationEssentials

/// Who wrote a message, as the chat-completions protocols name it.
public enum Role: String, Codable, Sendable {
    case system, user, assistant, tool
}

/// Where a message is in its life: the transcript shows it and the context builder reads it.
public enum MessageState: String, Codable, Sendable {
    /// Written by the user (or awaited from the model) and not yet answered.
    case sending
    /// Tokens are arriving.
    case streaming
    /// Complete.
    case done
    /// The connection ended before the server finished; the text that arrived is kept.
    case cutOff
    /// The user pressed Stop; the text that arrived is kept.
    case stopped
    /// The request failed; for a user message, before any of the reply came (not delivered).
    case failed
}

/// One message in a conversation, as stored and as shown.
public struct ChatMessage: Identifiable, Sendable, Equatable {
    public let id: UUID
    /// The message this one follows in its chat's tree; nil for a first message. Messages
    /// with the same parent are versions of each other (an edit, a regenerated reply).
    public var parentID: UUID?
    public var role: Role
    public var text: String
    /// The model that wrote an assistant message (the server's own name when it gives one).
    public var model: String?
    public var time: Date
    public var state: MessageState
    /// The tools an assistant reply called along the way, in order, with their results.
    public var toolCalls: [ToolCall]
    /// Token counts and speed, when the server reported them.
    public var usage: TokenUsage?
    /// The files sent with a user message.
    public var attachments: [AttachedFile]
    /// The passages of knowledge folders a reply was given, by source.
    public var sources: [KnowledgeSource]
    /// What a reasoning model thought before its answer (not part of `text`).
    public var reasoning: Reasoning?
    /// Where Agent's own words sit in a reply's `text` (a server's error, a tool the model
    /// does not have), as UTF-8 offsets in order: shown with the reply, never sent back to
    /// the model as what it said. `appendNotice` keeps them in step with the text, which a
    /// reply only ever grows at its end.
    public internal(set) var notices: [Range<Int>]

    public init(id: UUID = UUID(), parentID: UUID? = nil, role: Role, text: String, model: String? = nil, time: Date = Date(),
                state: MessageState, toolCalls: [ToolCall] = [], usage: TokenUsage? = nil, attachments: [AttachedFile] = [],
                sources: [KnowledgeSource] = [], reasoning: Reasoning? = nil, notices: [Range<Int>] = []) {
        self.id = id
        self.parentID = parentID
        self.role = role
        self.text = text
        self.model = model
        self.time = time
        self.state = state
        self.toolCalls = toolCalls
        self.usage = usage
        self.attachments = attachments
        self.sources = sources
        self.reasoning = reasoning
        self.notices = notices
    }

    /// `messages` as one branch: each follows the one before it, the first follows `parent`.
    public static func chained(_ messages: [ChatMessage], after parent: UUID? = nil) -> [ChatMessage] {
        var previous = parent
        return messages.map { message in
            var message = message
            message.parentID = previous
            previous = message.id
            return message
        }
    }

    /// A message of the user's that got no reply through (`failed`). The next one sent after
    /// it takes its place (`isRetried(by:)`): a retry leaves no copy behind in the chat.
    public var isUndelivered: Bool { role == .user && state == .failed }

    /// Whether `retry`, sent in this undelivered message's place, is the same message again:
    /// then this one holds nothing the retry does not, and is deleted rather than kept as a
    /// version of it, so retries while a server is down leave no trail of failed copies.
    public func isRetried(by retry: ChatMessage) -> Bool {
        isUndelivered && text == retry.text && attachments == retry.attachments
    }

    /// The time in ISO 8601 (UTC), as it is stored.
    public var isoTime: String {
        time.formatted(.iso8601)
    }

    /// The label above an assistant reply: the model that wrote it, as the server names it,
    /// or "Assistant" in the user's language when the server did not say.
    public var authorLabel: String {
        switch role {
        // TRANSLATORS: the label above a reply whose model is unknown.
        case .assistant: model ?? tr("Assistant")
        default: role.rawValue
        }
    }

    /// A reply's author in Markdown exports, in English: "assistant (model)".
    public var englishAuthorLabel: String {
        switch role {
        case .assistant: model.map { "assistant (\($0))" } ?? "assistant"
        default: role.rawValue
        }
    }
}

/// What the server said a reply cost.
public struct TokenUsage: Sendable, Codable, Equatable {
    public var promptTokens: Int?
    public var completionTokens: Int?
    /// Time spent generating the completion tokens, in seconds.
    public var generationSeconds: Double?

    public init(promptTokens: Int? = nil, completionTokens: Int? = nil, generationSeconds: Double? = nil) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.generationSeconds = generationSeconds
    }

    /// These counts, with the fields `newer` knows replaced (one round's reports merged).
    public func updated(with newer: TokenUsage) -> TokenUsage {
        TokenUsage(promptTokens: newer.promptTokens ?? promptTokens, completionTokens: newer.completionTokens ?? completionTokens,
                   generationSeconds: newer.generationSeconds ?? generationSeconds)
    }

    /// The counts of a reply made of two rounds: the later prompt (it holds the earlier
    /// one), the completions and their times added up.
    public func adding(_ later: TokenUsage?) -> TokenUsage {
        guard let later else { return self }
        func sum<T: AdditiveArithmetic>(_ first: T?, _ second: T?) -> T? {
            first.map { $0 + (second ?? .zero) } ?? second
        }
        return TokenUsage(promptTokens: later.promptTokens ?? promptTokens,
                          completionTokens: sum(completionTokens, later.completionTokens),
                          generationSeconds: sum(generationSeconds, later.generationSeconds))
    }

    /// A discreet line under a reply: "128 tokens · 42.1 tokens/s" (nil when nothing is known).
    public var summary: String? {
        guard let completionTokens else { return nil }
        let count = trn("%d token", "%d tokens", completionTokens)
        guard let rate = tokensPerSecond else { return count }
        // TRANSLATORS: how fast a reply was written; %s is a number, "42.1".
        return "\(count) · " + tr("%s tokens/s", UserLocale.number(rate, fractionDigits: 1))
    }

    /// The full figures, for a tooltip.
    public var details: String {
        var parts: [String] = []
        // TRANSLATORS: in a reply's token figures: the tokens of the conversation the model read.
        if let promptTokens { parts.append(trn("Prompt: %d token", "Prompt: %d tokens", promptTokens)) }
        // TRANSLATORS: in a reply's token figures: the tokens the model wrote.
        if let completionTokens { parts.append(trn("Reply: %d token", "Reply: %d tokens", completionTokens)) }
        // TRANSLATORS: in a reply's token figures; %s is a number of seconds, "3.2".
        if let generationSeconds { parts.append(tr("Generated in %s s", UserLocale.number(generationSeconds, fractionDigits: 1))) }
        return parts.joined(separator: "\n")
    }

    /// Completion tokens per second, when both figures are known.
    public var tokensPerSecond: Double? {
        guard let completionTokens, let generationSeconds, generationSeconds > 0 else { return nil }
        return Double(completionTokens) / generationSeconds
    }
}
