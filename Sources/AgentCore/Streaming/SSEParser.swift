/// An incremental Server-Sent Events parser following the WHATWG HTML standard,
/// "Parsing an event stream". Feed it bytes exactly as they arrive: chunks may split
/// lines, CRLF pairs, the leading byte-order mark and UTF-8 characters anywhere.
/// It works on bytes and decodes text only when an event is dispatched. An event may hold
/// at most `limit` bytes (`StreamLimit`): a larger one is dropped and `overflowed` says so,
/// so a server sending endless data cannot eat the memory.
public struct SSEParser: Sendable {
    /// The reconnection time in milliseconds from the last valid `retry:` field.
    public private(set) var reconnectionTime: Int?
    /// The most an event's line or data may hold.
    public let limit: Int
    /// An event went over `limit` and was dropped.
    public private(set) var overflowed = false
    /// The rest of a line that went over the size, and the event it was in, are skipped.
    private var skippingLine = false
    private var skippingEvent = false

    private var line: [UInt8] = []
    private var dataBuffer: [UInt8] = []
    private var eventTypeBuffer: [UInt8] = []
    private var lastEventID = ""
    /// Bytes that may still turn out to be the leading BOM.
    private var bomCandidate: [UInt8] = []
    private var atStreamStart = true
    /// The previous chunk ended with CR: a LF at the start of the next one ends no new line.
    private var previousByteWasCR = false

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// The room a line and an event's data start with: a streamed chunk's JSON fits.
    private static let startingCapacity = 256
    /// The most room the data buffer keeps from one event to the next.
    private static let keptCapacity = 64 * 1024
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20

    public init(limit: Int = StreamLimit.bytes) {
        self.limit = limit
        line.reserveCapacity(Self.startingCapacity)
        dataBuffer.reserveCapacity(Self.startingCapacity)
    }

    /// Parses the next chunk of the stream; `onEvent` runs for each event it completes. The
    /// event's data is the parser's own buffer, lent for the call: read it there; an event
    /// kept beyond the call keeps that buffer (copy-on-write), and the parser makes another.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, onEvent: (SSEEvent) -> Void) {
        var bytes = chunk.bindMemory(to: UInt8.self)[...]
        if atStreamStart {
            while let byte = bytes.first, bomCandidate.count < 3 {
                guard byte == Self.byteOrderMark[bomCandidate.count] else { break }
                bomCandidate.append(byte)
                bytes = bytes.dropFirst()
            }
            if bomCandidate.count == 3 {
                bomCandidate = []
                atStreamStart = false
            } else if bytes.isEmpty {
                return  // all of this chunk may still be a BOM
            } else {
                // Not a BOM after all: those bytes are content.
                let pending = bomCandidate
                bomCandidate = []
                atStreamStart = false
                pending.withUnsafeBytes { scan($0.bindMemory(to: UInt8.self)[...], onEvent: onEvent) }
            }
        }
        scan(bytes, onEvent: onEvent)
    }

    /// Convenience for tests and small inputs.
    public mutating func feed(_ bytes: [UInt8], onEvent: (SSEEvent) -> Void) {
        bytes.withUnsafeBytes { feed($0, onEvent: onEvent) }
    }

    /// The stream ended. A trailing line without its end-of-line and an event without its
    /// blank line are discarded, as the standard says.
    public mutating func finish() {
        line.removeAll(keepingCapacity: true)
        dataBuffer.removeAll(keepingCapacity: true)
        eventTypeBuffer.removeAll(keepingCapacity: true)
        bomCandidate = []
        previousByteWasCR = false
        skippingLine = false
        skippingEvent = false
    }

    private mutating func scan(_ input: Slice<UnsafeBufferPointer<UInt8>>, onEvent: (SSEEvent) -> Void) {
        var start = input.startIndex
        let end = input.endIndex
        if previousByteWasCR, start < end {
            previousByteWasCR = false
            if input[start] == Self.lf { start += 1 }
        }
        var index = start
        while true {
            index = ByteSearch.lineEnd(in: input.base, from: index, to: end)
            guard index < end else { break }
            let byte = input[index]
            if skippingLine {
                skippingLine = false
            } else if line.isEmpty {
                // The whole line is in this chunk: read where it lies.
                processLine(UnsafeBufferPointer(rebasing: input[start..<index]), onEvent: onEvent)
            } else {
                line.append(contentsOf: input[start..<index])
                var whole: [UInt8] = []
                swap(&whole, &line)
                whole.withUnsafeBufferPointer { processLine($0, onEvent: onEvent) }
                swap(&whole, &line)
            }
            line.removeAll(keepingCapacity: true)
            index += 1
            if byte == Self.cr {
                if index < end {
                    if input[index] == Self.lf { index += 1 }
                } else {
                    previousByteWasCR = true
                }
            }
            start = index
        }
        if start < end, !skippingLine {
            line.append(contentsOf: input[start..<end])
            if line.count > limit {
                overflowed = true
                line.removeAll()
                skippingLine = true
                skippingEvent = true
            }
        }
    }

    private mutating func processLine(_ line: UnsafeBufferPointer<UInt8>, onEvent: (SSEEvent) -> Void) {
        guard let first = line.first else {
            dispatch(onEvent: onEvent)
            return
        }
        if first == Self.colon { return }  // a comment, such as a keep-alive
        let fieldEnd = line.firstIndex(of: Self.colon) ?? line.endIndex
        var valueStart = fieldEnd == line.endIndex ? fieldEnd : fieldEnd + 1
        if valueStart < line.endIndex, line[valueStart] == Self.space { valueStart += 1 }
        let field = UnsafeBufferPointer(rebasing: line[..<fieldEnd])
        let value = line[valueStart...]
        if ByteSearch.bytes(field, equal: "data") {
            guard !skippingEvent else { return }
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(Self.lf)
            if dataBuffer.count > limit {
                overflowed = true
                dataBuffer.removeAll()
                skippingEvent = true
            }
        } else if ByteSearch.bytes(field, equal: "event") {
            eventTypeBuffer.replaceSubrange(eventTypeBuffer.startIndex..., with: value)
        } else if ByteSearch.bytes(field, equal: "id") {
            if !value.contains(0) {
                lastEventID = String(decoding: value, as: UTF8.self)
            }
        } else if ByteSearch.bytes(field, equal: "retry") {
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
               let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = milliseconds
            }
        }
        // Any other field is ignored.
    }

    private mutating func dispatch(onEvent: (SSEEvent) -> Void) {
        if skippingEvent {
            skippingEvent = false
            dataBuffer.removeAll(keepingCapacity: true)
            eventTypeBuffer.removeAll(keepingCapacity: true)
            return
        }
        guard !dataBuffer.isEmpty else {
            eventTypeBuffer.removeAll(keepingCapacity: true)
            return
        }
        if dataBuffer.last == Self.lf { dataBuffer.removeLast() }
        let type = eventTypeBuffer.isEmpty ? "message" : String(decoding: eventTypeBuffer, as: UTF8.self)
        // The event borrows the buffer and gives it back: no copy, and no allocation for the
        // next event unless `onEvent` kept this one's data.
        var event = SSEEvent(type: type, dataBytes: [], lastEventID: lastEventID)
        swap(&event.dataBytes, &dataBuffer)
        eventTypeBuffer.removeAll(keepingCapacity: true)
        onEvent(event)
        swap(&event.dataBytes, &dataBuffer)
        if dataBuffer.capacity > Self.keptCapacity {
            // One large event does not make every later one carry its room.
            dataBuffer = []
            dataBuffer.reserveCapacity(Self.startingCapacity)
        } else {
            dataBuffer.removeAll(keepingCapacity: true)
        }
    }
}
