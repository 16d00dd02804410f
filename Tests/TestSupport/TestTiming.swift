import Foundation

/// Time budgets in tests stretch under sanitizers, which slow everything several times
/// over: `AGENT_TEST_TIME_SCALE` (scripts/sanitize sets it) multiplies them.
public enum TestTiming {
    public static let scale: Int = {
        guard let text = ProcessInfo.processInfo.environment["AGENT_TEST_TIME_SCALE"], let value = Int(text), value > 0 else { return 1 }
        return value
    }()
}
