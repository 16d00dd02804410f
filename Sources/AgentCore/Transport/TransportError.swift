/// Why an HTTP exchange did not complete.
public enum TransportError: Error, Sendable, Equatable {
    /// The caller cancelled it.
    case cancelled
    /// libcurl gave up: `code` is its CURLcode, `message` its most specific explanation.
    case failed(code: Int, message: String)

    /// The connection ended before the response was complete (the server closed or reset it).
    public var isPrematureEnd: Bool {
        guard case .failed(let code, _) = self else { return false }
        // CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_HTTP2_STREAM, CURLE_GOT_NOTHING
        return [18, 56, 92, 52].contains(code)
    }
}
