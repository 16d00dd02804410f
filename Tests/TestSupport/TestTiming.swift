import Foundation

/// Time budgets in tests stretch under sanitizers, which slow everything several times
/// over: `AGENT_TEST_TIME_SCALE` (scripts/sanitize sets it) multiplies them.
public enum TestTiming {
    public static let scale: Int = {
        guard let text = ProcessInfo.processInfo.environment["AGENT_TEST_TIME_SCALE"], let value = Int(text), value > 0 else { return 1 }
        return value
    }()

    /// Waits until `condition` holds, looking every few milliseconds, for at most `timeout`
    /// (scaled: generous, for a loaded machine); whether it holds at the end.
    public static func eventually(within timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
                                  _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout * scale
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return condition()
    }
}
