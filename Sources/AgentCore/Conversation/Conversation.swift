import FoundationEssentials

/// An ordered chat between the user and a model; the source of each request's context.
public struct Conversation: Sendable, Equatable {
    public private(set) var messages: [ChatMessage] = []

    public init(messages: [ChatMessage] = []) {
        self.messages = messages
    }

    public var count: Int { messages.count }

    public subscript(index: Int) -> ChatMessage {
        get { messages[index] }
        set { messages[index] = newValue }
    }

    public func index(of id: UUID) -> Int? {
        messages.lastIndex { $0.id == id }
    }

    public mutating func append(_ message: ChatMessage) {
        messages.append(message)
    }

    public mutating func remove(at index: Int) {
        messages.remove(at: index)
    }

    /// Changes a message in place (a growing reply's text is never copied).
    @discardableResult
    public mutating func update<Result>(_ index: Int, _ body: (inout ChatMessage) -> Result) -> Result {
        body(&messages[index])
    }

    /// The messages a request carries so the model keeps the context: everything said so
    /// far except user messages that never reached the model and replies with nothing in them.
    public func context(through lastIndex: Int? = nil) -> [ChatMessage] {
        let end = lastIndex.map { $0 + 1 } ?? messages.count
        return messages[..<end].filter { message in
            switch (message.role, message.state) {
            case (.user, .failed): false
            case (.assistant, _): !message.text.isEmpty || !message.toolCalls.isEmpty
            default: true
            }
        }
    }
}
