/// Splits a byte stream into lines at LF (a CR before it is dropped), for newline-delimited
/// JSON such as Ollama's. Lines may arrive split across chunks anywhere, UTF-8 included;
/// blank lines are skipped; a last line without LF is given out by `finish()`. A line
/// longer than `limit` (`StreamLimit`) is dropped and `overflowed` says so, so garbage
/// cannot eat the memory.
public struct NDJSONLineSplitter: Sendable {
    private var line: [UInt8] = []
    private var skippingLine = false
    public let limit: Int
    /// A line went over `limit` and was dropped.
    public private(set) var overflowed = false

    public init(limit: Int = StreamLimit.bytes) {
        self.limit = limit
    }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onLine: ([UInt8]) -> Void) {
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            if skippingLine {
                skippingLine = false
            } else {
                line.append(contentsOf: bytes[start..<index])
                emit(onLine)
            }
            start = index + 1
        }
        guard !skippingLine else { return }
        line.append(contentsOf: bytes[start..<bytes.endIndex])
        if line.count > limit {
            overflowed = true
            skippingLine = true
            line.removeAll()
        }
    }

    public mutating func feed(_ bytes: [UInt8], onLine: ([UInt8]) -> Void) {
        bytes.withUnsafeBytes { feed($0, onLine: onLine) }
    }

    /// The stream ended: the last line, if it had no LF.
    public mutating func finish(onLine: ([UInt8]) -> Void) {
        if !skippingLine { emit(onLine) }
        skippingLine = false
    }

    private mutating func emit(_ onLine: ([UInt8]) -> Void) {
        if line.last == 0x0D { line.removeLast() }
        if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { onLine(line) }
        line.removeAll(keepingCapacity: true)
    }
}
