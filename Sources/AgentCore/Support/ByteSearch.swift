import Glibc

/// Byte comparisons and searches done by the C library (SIMD), for what runs once per
/// streamed token: the generic `elementsEqual` and byte-by-byte loops cost more than the
/// rest of reading a chunk.
enum ByteSearch {
    /// Whether `bytes` are exactly the UTF-8 of `text`.
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, equal text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return true }
        return memcmp(base, text.utf8Start, bytes.count) == 0
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
