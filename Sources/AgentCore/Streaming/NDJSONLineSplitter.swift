/// Splits a byte stream into lines at LF (a CR before it is dropped), for newline-delimited
/// JSON such as Ollama's. Lines may arrive split across chunks anywhere, UTF-8 included;
/// blank lines are skipped; a last line without LF is given out by `finish()`.
public struct NDJSONLineSplitter: Sendable {
    private var line: [UInt8] = []
    /// Lines longer than this are cut off and reported, so garbage cannot eat memory.
    public static let maximumLineLength = 16 << 20

    public init() {}

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, onLine: ([UInt8]) -> Void) {
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            line.append(contentsOf: bytes[start..<index])
            emit(onLine)
            start = index + 1
        }
        line.append(contentsOf: bytes[start..<bytes.endIndex])
        if line.count > Self.maximumLineLength { emit(onLine) }
    }

    public mutating func feed(_ bytes: [UInt8], onLine: ([UInt8]) -> Void) {
        bytes.withUnsafeBytes { feed($0, onLine: onLine) }
    }

    /// The stream ended: the last line, if it had no LF.
    public mutating func finish(onLine: ([UInt8]) -> Void) {
        emit(onLine)
    }

    private mutating func emit(_ onLine: ([UInt8]) -> Void) {
        if line.last == 0x0D { line.removeLast() }
        if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { onLine(line) }
        line.removeAll(keepingCapacity: true)
    }
}
