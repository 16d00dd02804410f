/// An image's size as its header states it, read before anything is decoded: a file of a
/// few bytes can claim a vast image, and decoding that would take gigabytes.
enum ImageHeader {
    /// Width and height in pixels; nil when the header cannot be read (the decoder decides).
    static func size(of bytes: [UInt8], format: FileSignature.ImageFormat) -> (width: Int, height: Int)? {
        func big16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func little16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func little24(_ at: Int) -> Int { little16(at) | Int(bytes[at + 2]) << 16 }
        switch format {
        case .png:
            guard bytes.count >= 24 else { return nil }
            return (big16(16) << 16 | big16(18), big16(20) << 16 | big16(22))
        case .gif:
            guard bytes.count >= 10 else { return nil }
            return (little16(6), little16(8))
        case .webp:
            guard bytes.count >= 30 else { return nil }
            switch String(decoding: bytes[12..<16], as: UTF8.self) {
            case "VP8 ": return (little16(26) & 0x3FFF, little16(28) & 0x3FFF)
            case "VP8L":
                let bits = little16(21) | little16(23) << 16
                return (1 + bits & 0x3FFF, 1 + (bits >> 14) & 0x3FFF)
            case "VP8X": return (1 + little24(24), 1 + little24(27))
            default: return nil
            }
        case .jpeg:
            // The first start-of-frame segment holds the size; others are skipped by length.
            var at = 2
            while at + 9 < bytes.count {
                guard bytes[at] == 0xFF else { return nil }
                let marker = bytes[at + 1]
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return (big16(at + 7), big16(at + 5))
                }
                at += 2 + big16(at + 2)
            }
            return nil
        }
    }
}
