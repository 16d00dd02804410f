/// One event dispatched by an event stream, as the WHATWG HTML standard defines it.
public struct SSEEvent: Sendable, Equatable {
    /// The `event:` field, or "message" when the block had none.
    public var type: String
    /// The `data:` lines joined by "\n".
    public var data: String
    /// The last event ID seen so far in the stream (it carries over between events).
    public var lastEventID: String

    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
