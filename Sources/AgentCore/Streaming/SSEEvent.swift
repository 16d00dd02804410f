/// One event dispatched by an event stream, as the WHATWG HTML standard defines it. Its data
/// stays bytes, as it arrived: a JSON payload is parsed from them directly, and text is
/// decoded only where it is wanted.
public struct SSEEvent: Sendable, Equatable {
    /// The `event:` field, or "message" when the block had none.
    public var type: String
    /// The `data:` lines joined by "\n", as UTF-8 bytes.
    public var dataBytes: [UInt8]
    /// The last event ID seen so far in the stream (it carries over between events).
    public var lastEventID: String

    /// The data as text (invalid UTF-8 replaced).
    public var data: String { String(decoding: dataBytes, as: UTF8.self) }

    /// Whether the data is exactly `text`, without decoding it.
    public func dataIs(_ text: StaticString) -> Bool {
        dataBytes.withUnsafeBufferPointer { ByteSearch.bytes($0, equal: text) }
    }

    public init(type: String = "message", dataBytes: [UInt8], lastEventID: String = "") {
        self.type = type
        self.dataBytes = dataBytes
        self.lastEventID = lastEventID
    }

    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.init(type: type, dataBytes: Array(data.utf8), lastEventID: lastEventID)
    }
}
