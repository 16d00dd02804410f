/// Sizes as people read them: "820 bytes", "256 KB", "10.0 MB", "2.5 GB".
public enum ByteCountText {
    public static func describe(_ count: Int) -> String {
        if count < 1024 { return "\(count) bytes" }
        if count >= 1_000_000_000 { return tenths(count, unit: 1_000_000_000, "GB") }
        if count >= 1_000_000 { return tenths(count, unit: 1_000_000, "MB") }
        return "\((count + 512) / 1024) KB"
    }

    private static func tenths(_ count: Int, unit: Int, _ name: String) -> String {
        let tenths = Int((Double(count) / Double(unit / 10)).rounded())
        return "\(tenths / 10).\(tenths % 10) \(name)"
    }
}
