import CCurl
import Synchronization

/// Loads libcurl ahead of the first transfer, on a thread of its own. libcurl is loaded on
/// first use to keep it out of start-up, but loading it — some twenty libraries to map and
/// relocate — takes tens of milliseconds of CPU; begun when the user starts writing, it is
/// done before the message is sent instead of competing with the frame that shows the send.
public enum LibcurlPreload {
    private static let begun = Atomic(false)

    /// Starts loading libcurl unless that was begun before; returns at once.
    public static func begin() {
        guard !begun.exchange(true, ordering: .relaxed) else { return }
        _ = DetachedThread.tryStart { _ = agent_curl_available() }
    }
}
