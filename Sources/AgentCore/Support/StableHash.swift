/// FNV-1a, 64 bits: a hash that is the same in every run and on every machine (Swift's
/// `Hasher` is seeded per process), for fingerprints kept in settings and short name suffixes.
enum StableHash {
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash as 16 hexadecimal digits.
    static func hex(_ text: String) -> String {
        let hex = String(fnv1a(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
