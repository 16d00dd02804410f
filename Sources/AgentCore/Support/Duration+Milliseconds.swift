extension Duration {
    /// Whole milliseconds, for C APIs and GLib timeouts that count in them.
    public var milliseconds: Int {
        let parts = components
        return Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}
