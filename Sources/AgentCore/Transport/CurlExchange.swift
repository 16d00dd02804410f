import CCurl
import FoundationEssentials

/// One transfer's libcurl easy handle and what its callbacks need: the handlers to report to,
/// the response head being read, the error buffer and the header list. Lives on the
/// transfer engine's thread from `TransferEngine.start` until `close()`.
final class CurlExchange {
    let easy: UnsafeMutableRawPointer
    let transfer: HTTPTransfer
    let errorBuffer: UnsafeMutablePointer<CChar>
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// When a byte last came or went: the idle timeout counts from there.
    private(set) var lastActivity = ContinuousClock.now
    private var uploaded: curl_off_t = 0
    private var headers: [(name: String, value: String)] = []
    private var reason = ""
    private var headDelivered = false

    init(easy: UnsafeMutableRawPointer, transfer: HTTPTransfer) {
        self.easy = easy
        self.transfer = transfer
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// Frees the easy handle and header list; the exchange is done with libcurl.
    func close() {
        agent_curl_easy_cleanup(easy)
        agent_curl_slist_free_all(headerList)
        headerList = nil
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// How long the exchange may yet be quiet before it has stalled (nil: no limit); notes
    /// request bytes sent since the last look as activity.
    func idleTimeLeft(at now: ContinuousClock.Instant) -> (left: Duration, limit: Duration)? {
        guard let limit = transfer.idleTimeout else { return nil }
        let sent = agent_curl_uploaded(easy)
        if sent != uploaded {
            uploaded = sent
            lastActivity = now
        }
        return (limit - (now - lastActivity), limit)
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = .now
        let line = String(decoding: bytes, as: UTF8.self).trimmed
        if line.hasPrefix("HTTP/") {
            // A new response starts (after a 100 Continue or a redirect): forget the last one.
            headers = []
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            reason = parts.count == 3 ? String(parts[2]) : ""
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmedSpaces
            let value = line[line.index(after: colon)...].trimmedSpaces
            headers.append((name, value))
        }
    }

    /// False once the transfer is cancelled: libcurl then stops reading it at once.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !transfer.isCancelled else { return false }
        deliverHeadIfNeeded()
        transfer.handlers.body(bytes)
        // After the handler: time it took is not the server's silence.
        lastActivity = .now
        return true
    }

    func deliverHeadIfNeeded() {
        guard !headDelivered else { return }
        headDelivered = true
        let status = agent_curl_response_code(easy)
        let phrase = reason.isEmpty ? HTTPReasonPhrase.standard(for: status) : reason
        transfer.handlers.head(HTTPResponseHead(status: status, reason: phrase, headers: headers))
    }

    /// How the exchange ended, given libcurl's result; reads the handle, so call before `close()`.
    func outcome(_ result: CURLcode) -> TransportError? {
        if transfer.isCancelled { return .cancelled }
        guard result == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            return .failed(code: Int(result.rawValue),
                           message: detail.isEmpty ? String(cString: agent_curl_easy_strerror(result)) : detail)
        }
        deliverHeadIfNeeded()
        return nil
    }
}

let curlWriteCallback: agent_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    return exchange.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

let curlHeaderCallback: agent_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    exchange.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}
