import CCurl
import Synchronization

/// Loads libcurl ahead of the first transfer, on a thread of its own. libcurl is loaded on
/// first use to keep it out of start-up, but loading it — some twenty libraries to map and
/// relocate — takes tens of milliseconds of CPU: a front end that knows a request is coming
/// (a message being written) begins it here, so that the request need not wait for it. A
/// request made meanwhile waits for the load to end (`agent_curl_available` runs it once).
public enum LibcurlPreload {
    private static let begun = Atomic(false)

    /// Starts loading libcurl unless that was begun before; returns at once.
    public static func begin() {
        guard !begun.exchange(true, ordering: .relaxed) else { return }
        _ = DetachedThread.tryStart { _ = agent_curl_available() }
    }
}
