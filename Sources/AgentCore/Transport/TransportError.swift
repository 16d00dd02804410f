/// Why an HTTP exchange did not complete.
public enum TransportError: Error, Sendable, Equatable {
    /// The caller cancelled it.
    case cancelled
    /// libcurl gave up: `code` is its CURLcode, `message` its most specific explanation.
    case failed(code: Int, message: String)

    /// The whole exchange took longer than its overall limit (curl's own words for it; a
    /// stall, less than a byte a second, is the same code with other words).
    public var isOverallTimeout: Bool {
        guard case .failed(28, let message) = self else { return false }
        return !message.contains("too slow")
    }

    /// The connection ended before the response was complete (the server closed or reset it).
    public var isPrematureEnd: Bool {
        guard case .failed(let code, _) = self else { return false }
        // CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_HTTP2_STREAM, CURLE_GOT_NOTHING
        return [18, 56, 92, 52].contains(code)
    }
}
