import FoundationEssentials

/// Decodes a streamed OpenAI chat completion (SSE carrying JSON chunks): text, reasoning
/// (`reasoning_content`, `reasoning`, or `<think>` opening the content), tool-call fragments
/// joined per `index` (and `id`: `OpenAIChunkReader`), errors in the stream, `[DONE]`. Each event is read as the SSE parser
/// completes it (`OpenAIChunkReader`), its data where the parser holds it. A body that is one
/// JSON object instead (a server or proxy that does not stream, or answers with an error
/// object) is read whole when it ends.
public struct OpenAIStreamDecoder: ReplyStreamDecoder {
    /// What the body is, told by its first byte other than white space (and a leading
    /// byte-order mark), whatever its content type says: `{` opens a whole JSON reply, where an
    /// event stream starts with a field (`data:`, `event:`) or a `:` comment.
    private enum Body {
        case undecided, eventStream, wholeJSON
    }

    private var parser: SSEParser
    private var reader = OpenAIChunkReader()
    private var body = Body.undecided
    /// How much of a leading byte-order mark the body has begun with; nil once a byte that is
    /// none of it has come.
    private var leadingMarkBytes: Int? = 0
    /// A whole JSON reply's bytes, up to the parser's limit.
    private var wholeReply: [UInt8] = []
    private var wholeReplyOverflowed = false

    /// `limit`: the most one streamed unit may hold (`StreamLimit`).
    public init(limit: Int = StreamLimit.bytes) {
        parser = SSEParser(limit: limit)
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [ReplyEvent] {
        var batch = ReplyEventBatch()
        var bytes = bytes
        // The reply is kept from its `{`, the same however the body was cut.
        if body == .undecided, let start = decide(bytes) { bytes = UnsafeRawBufferPointer(rebasing: bytes[start...]) }
        if body == .wholeJSON {
            keepWholeReply(bytes)
        } else {
            parser.feed(bytes) { reader.handle($0, into: &batch) }
        }
        reader.reportOverflow(hasOverflowed, into: &batch)
        return batch.finish()
    }

    public var hasOverflowed: Bool { parser.overflowed || wholeReplyOverflowed }

    public mutating func finish() -> (events: [ReplyEvent], outcome: StreamOutcome) {
        parser.finish()
        var batch = ReplyEventBatch()
        if body == .wholeJSON, !wholeReplyOverflowed { reader.handleWholeReply(wholeReply, into: &batch) }
        reader.finish(into: &batch)
        return (batch.finish(), reader.outcome)
    }

    /// Reads `bytes` while the body is undecided, past a leading byte-order mark (which a
    /// server may send before its JSON or its stream) and white space: the first other byte
    /// decides. Where in `bytes` a whole JSON reply's `{` is.
    private mutating func decide(_ bytes: UnsafeRawBufferPointer) -> Int? {
        for index in bytes.indices {
            let byte = bytes[index]
            if let matched = leadingMarkBytes, matched < Self.byteOrderMark.count {
                if byte == Self.byteOrderMark[matched] {
                    leadingMarkBytes = matched + 1
                    continue
                }
                // A mark begun and not finished: the body begins with its first byte.
                if matched > 0 {
                    body = .eventStream
                    return nil
                }
            }
            leadingMarkBytes = nil
            if Self.isWhiteSpace(byte) { continue }
            body = byte == UInt8(ascii: "{") ? .wholeJSON : .eventStream
            return body == .wholeJSON ? index : nil
        }
        return nil
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// JSON's white space. While the body has been only that (after a leading byte-order mark,
    /// which the SSE parser drops too), it is `.undecided` and goes to the SSE parser, for
    /// which it is blank lines or ignored fields.
    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Adds `bytes` to the whole reply; past the limit, drops it and says the body overflowed.
    private mutating func keepWholeReply(_ bytes: UnsafeRawBufferPointer) {
        guard !wholeReplyOverflowed else { return }
        guard wholeReply.count + bytes.count <= parser.limit else {
            wholeReplyOverflowed = true
            wholeReply = []
            return
        }
        wholeReply.append(contentsOf: bytes)
    }
}
