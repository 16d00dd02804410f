import FoundationEssentials

/// An ordered chat between the user and a model; the source of each request's context.
public struct Conversation: Sendable, Equatable {
    public private(set) var messages: [ChatMessage] = []
    /// Each message's place, counted from `base`: the transcript looks up every row it
    /// binds, in chats of thousands of loaded messages, and earlier pages put before them
    /// move `base` instead of every place.
    private var places: [UUID: Int] = [:]
    /// The place of `messages[0]`.
    private var base = 0

    public init(messages: [ChatMessage] = []) {
        self.messages = messages
        index(from: 0)
    }

    public static func == (lhs: Conversation, rhs: Conversation) -> Bool {
        lhs.messages == rhs.messages
    }

    public var count: Int { messages.count }

    public subscript(index: Int) -> ChatMessage {
        get { messages[index] }
        set {
            let old = messages[index].id
            messages[index] = newValue
            if newValue.id != old { reindex(index, replacing: old) }
        }
    }

    public func index(of id: UUID) -> Int? {
        places[id].map { $0 - base }
    }

    public mutating func append(_ message: ChatMessage) {
        messages.append(message)
        places[message.id] = base + messages.count - 1
    }

    /// Puts `page` (earlier messages) before the others.
    public mutating func prepend(_ page: [ChatMessage]) {
        messages.insert(contentsOf: page, at: 0)
        base -= page.count
        // A later message of the same id keeps its place.
        for (offset, message) in page.enumerated().reversed() where places[message.id] == nil {
            places[message.id] = base + offset
        }
    }

    public mutating func remove(at index: Int) {
        let id = messages.remove(at: index).id
        places[id] = nil
        self.index(from: index)
    }

    /// Takes the first `count` messages off (a long chat's window moved on): the others keep
    /// their places, `base` moves.
    public mutating func removeFirst(_ count: Int) {
        forgetPlaces(of: 0..<count)
        messages.removeFirst(count)
        base += count
    }

    /// Takes the last `count` messages off.
    public mutating func removeLast(_ count: Int) {
        let forgotten = Set(forgetPlaces(of: (messages.count - count)..<messages.count))
        messages.removeLast(count)
        // An earlier message of the same id has the place now (the later of them).
        for (position, message) in messages.enumerated() where forgotten.contains(message.id) {
            places[message.id] = base + position
        }
    }

    /// Forgets the places of the messages at `range` (not those of others with the same id);
    /// the ids forgotten.
    @discardableResult
    private mutating func forgetPlaces(of range: Range<Int>) -> [UUID] {
        var forgotten: [UUID] = []
        for position in range where places[messages[position].id] == base + position {
            places[messages[position].id] = nil
            forgotten.append(messages[position].id)
        }
        return forgotten
    }

    /// Changes a message in place (a growing reply's text is never copied).
    @discardableResult
    public mutating func update<Result>(_ index: Int, _ body: (inout ChatMessage) -> Result) -> Result {
        let old = messages[index].id
        let result = body(&messages[index])
        if messages[index].id != old { reindex(index, replacing: old) }
        return result
    }

    /// Records the places of the messages from `start` on (a later one of the same id wins).
    private mutating func index(from start: Int) {
        for position in start..<messages.count { places[messages[position].id] = base + position }
    }

    /// The message at `index` took another id.
    private mutating func reindex(_ index: Int, replacing old: UUID) {
        if places[old] == base + index { places[old] = nil }
        places[messages[index].id] = base + index
    }

    /// The messages a request carries so the model keeps the context: everything said so
    /// far except user messages that never reached the model and replies with nothing in
    /// them. A reply goes with the model's words alone, empty when it has none (only its
    /// thinking, or a server's error): an empty turn keeps user and assistant alternating,
    /// which many chat templates require.
    public func context(through lastIndex: Int? = nil) -> [ChatMessage] {
        let end = lastIndex.map { $0 + 1 } ?? messages.count
        return messages[..<end].filter { message in
            switch message.role {
            case .user: !message.isUndelivered
            case .assistant: !message.text.isEmpty || message.reasoning != nil || !message.toolCalls.isEmpty
            default: true
            }
        }
    }
}
