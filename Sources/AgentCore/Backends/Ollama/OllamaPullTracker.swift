/// Folds the lines of Ollama's `/api/pull` stream into progress: each layer's completed and
/// total bytes (by digest) summed into one, and the speed over a short window.
struct OllamaPullTracker {
    /// How far back the speed looks.
    static let speedWindow = Duration.seconds(3)
    private var layers: [String: (completed: Int, total: Int)] = [:]
    private var samples: [(time: ContinuousClock.Instant, bytes: Int)] = []
    private var highestFraction = 0.0
    /// Ollama said "success".
    private(set) var succeeded = false

    /// The progress after one line of the stream (nil for a line without a status);
    /// an `{"error": …}` line throws Ollama's message.
    mutating func read(_ line: JSONValue, at time: ContinuousClock.Instant) throws(OllamaModelError) -> OllamaPullProgress? {
        if let error = line["error"], !error.isNull {
            throw .ollama(ServerErrorBody.message(in: error) ?? tr("Ollama reported an error without a message."))
        }
        guard let status = line["status"]?.stringValue else { return nil }
        if status == "success" { succeeded = true }
        var downloading = false
        if let digest = line["digest"]?.stringValue, let total = line["total"]?.intValue, total > 0 {
            layers[digest] = (min(line["completed"]?.intValue ?? 0, total), total)
            downloading = true
        }
        let completed = layers.values.reduce(0) { $0 + $1.completed }
        let total = layers.values.reduce(0) { $0 + $1.total }
        var speed: Double?
        if downloading {
            samples.append((time, completed))
            samples.removeAll { time - $0.time > Self.speedWindow }
            if let first = samples.first, time - first.time >= .milliseconds(200) {
                let seconds = Double((time - first.time).milliseconds) / 1000
                speed = Double(completed - first.bytes) / seconds
            }
        }
        if total > 0 { highestFraction = max(highestFraction, min(1, Double(completed) / Double(total))) }
        return OllamaPullProgress(status: status, completed: completed, total: total, bytesPerSecond: speed,
                                  fraction: total > 0 ? highestFraction : nil)
    }
}
