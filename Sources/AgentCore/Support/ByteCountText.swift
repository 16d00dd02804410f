import CGLib

/// Sizes as people read them.
public enum ByteCountText {
    /// For the user, as GNOME writes sizes (GLib's `g_format_size`: the locale's decimal
    /// separator, units in the desktop's language): "820 bytes", "256.0 kB", "2.5 GB".
    public static func describe(_ count: Int) -> String {
        guard let text = g_format_size(guint64(max(count, 0))) else { return ByteCountText.english(count) }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The same in fixed English, for what is not read in the user's language: text the model
    /// reads, Markdown exports. "820 bytes", "256 KB", "10.0 MB", "2.5 GB".
    public static func english(_ count: Int) -> String {
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
