import FoundationEssentials

/// Where the runtime's set-up has got to, as `install-runtime --progress` reports it in
/// lines of the form `PROGRESS <percent> <phase>` ("PROGRESS 45 Building llama.cpp").
public struct RuntimeInstallProgress: Sendable, Equatable {
    /// 0–100, over the whole set-up.
    public let percent: Int
    /// What is happening ("Building llama.cpp").
    public let phase: String

    public init(percent: Int, phase: String) {
        self.percent = min(100, max(0, percent))
        self.phase = phase
    }

    /// The progress a line reports; nil for any other line.
    public static func parse(_ line: String) -> RuntimeInstallProgress? {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count >= 2, words[0] == "PROGRESS", let percent = Int(words[1]) else { return nil }
        let phase = words.count == 3 ? words[2].trimmed : ""
        return RuntimeInstallProgress(percent: percent, phase: phase)
    }

    /// As the window shows it, the percentage in the user's locale: "Building llama.cpp — 45%".
    /// The phase is the script's own words, in English.
    public var description: String {
        let done = UserLocale.percent(fraction)
        return phase.isEmpty ? done : "\(phase) — \(done)"
    }

    /// 0–1, for a progress bar.
    public var fraction: Double { Double(percent) / 100 }
}
