/// Sizes as people read them: "820 bytes", "256 KB", "10.0 MB".
public enum ByteCountText {
    public static func describe(_ count: Int) -> String {
        if count < 1024 { return "\(count) bytes" }
        if count >= 1_000_000 {
            let tenths = Int((Double(count) / 100_000).rounded())
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return "\((count + 512) / 1024) KB"
    }
}
