import Glibc

/// Byte comparisons and searches done by the C library (SIMD), for what runs once per
/// streamed token: the generic `elementsEqual` and byte-by-byte loops cost more than the
/// rest of reading a chunk.
enum ByteSearch {
    /// Whether `bytes` are exactly the UTF-8 of `text`.
    /// Short ones (a JSON member's name, an SSE field) byte by byte: a call to `memcmp`
    /// costs more than the comparison.
    @inline(__always)
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, equal text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        guard let base = bytes.baseAddress else { return true }
        let expected = text.utf8Start
        guard count <= 16 else { return memcmp(base, expected, count) == 0 }
        for offset in 0..<count where base[offset] != expected[offset] { return false }
        return true
    }

    /// Whether `buffer` holds `expected` from `offset` on (false when it is too short).
    static func bytes(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, equal expected: [UInt8]) -> Bool {
        guard offset >= 0, buffer.count - offset >= expected.count else { return false }
        guard let base = buffer.baseAddress, !expected.isEmpty else { return true }
        return memcmp(base + offset, expected, expected.count) == 0
    }

    /// The position of the first CR or LF in `buffer[from..<to]`, or `to`.
    static func lineEnd(in buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard let base = buffer.baseAddress, from < to else { return to }
        let start = UnsafeRawPointer(base + from)
        let lf = memchr(start, 0x0A, to - from).map { UnsafeRawPointer($0) - start } ?? (to - from)
        let cr = lf == 0 ? nil : memchr(start, 0x0D, lf).map { UnsafeRawPointer($0) - start }
        return from + (cr ?? lf)
    }
}
