import FoundationEssentials

/// Where a pull stands, for a progress bar or a terminal line.
public struct OllamaPullProgress: Sendable, Equatable {
    /// Ollama's own words: "pulling manifest", "pulling 6e4c38e1172f", "verifying sha256 digest", "success".
    public var status: String
    /// Bytes received, over every layer seen so far.
    public var completed: Int
    /// Bytes to receive, over every layer seen so far (0 before the first layer).
    public var total: Int
    /// The download speed over the last few seconds; nil while nothing is downloading.
    public var bytesPerSecond: Double?
    /// How much of the pull is done, 0…1; nil before any layer's size is known. It never goes
    /// back: a small layer announced after a big one is done does not move the bar backwards.
    public var fraction: Double?

    public init(status: String, completed: Int = 0, total: Int = 0, bytesPerSecond: Double? = nil, fraction: Double? = nil) {
        self.status = status
        self.completed = completed
        self.total = total
        self.bytesPerSecond = bytesPerSecond
        self.fraction = fraction ?? (total > 0 ? min(1, Double(completed) / Double(total)) : nil)
    }

    /// "1.2 GB of 2.5 GB · 35.0 MB/s": the bytes and the speed, when there are any.
    public var bytesText: String? {
        guard total > 0 else { return nil }
        // TRANSLATORS: download progress: "1.2 GB of 2.5 GB".
        let bytes = tr("%1$s of %2$s", ByteCountText.describe(completed), ByteCountText.describe(total))
        guard let bytesPerSecond, bytesPerSecond > 0 else { return bytes }
        // TRANSLATORS: download speed: %s is a size, "35 MB".
        return "\(bytes) · " + tr("%s/s", ByteCountText.describe(Int(bytesPerSecond)))
    }

    /// "45%", when the size is known.
    public var percentText: String? {
        fraction.map(UserLocale.percent)
    }
}
