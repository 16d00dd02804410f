import CCurl
import FoundationEssentials
import Synchronization

/// What a transfer reports, in order, on its own thread: the head once (before any body),
/// body chunks as they arrive, then completion once (nil error = complete response).
public struct HTTPTransferHandlers: Sendable {
    public var head: @Sendable (HTTPResponseHead) -> Void
    public var body: @Sendable (UnsafeRawBufferPointer) -> Void
    public var complete: @Sendable (TransportError?) -> Void

    public init(head: @escaping @Sendable (HTTPResponseHead) -> Void,
                body: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                complete: @escaping @Sendable (TransportError?) -> Void) {
        self.head = head
        self.body = body
        self.complete = complete
    }
}

/// One HTTP exchange over libcurl, run on a thread of its own so bytes are handed on the
/// moment they arrive. `cancel()` may be called from any thread: it wakes the transfer's
/// poll and the connection is closed within a millisecond or so.
public final class HTTPTransfer: Sendable {
    private struct Control {
        var cancelled = false
        var multi: MultiHandle?
    }

    /// Other threads only ever call `curl_multi_wakeup` on it, which libcurl allows.
    private struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private let request: HTTPRequest
    private let handlers: HTTPTransferHandlers
    private let control = Mutex(Control())

    public init(request: HTTPRequest, handlers: HTTPTransferHandlers) {
        self.request = request
        self.handlers = handlers
    }

    /// Starts the exchange on a new thread; the transfer keeps itself alive until it completes.
    public func start() {
        DetachedThread.start { self.run() }
    }

    public func cancel() {
        control.withLock { control in
            control.cancelled = true
            if let multi = control.multi { agent_curl_multi_wakeup(multi.pointer) }
        }
    }

    private var isCancelled: Bool { control.withLock { $0.cancelled } }

    /// Runs one exchange in the calling task: `head` and `body` run on the transfer's
    /// thread as data arrives; returns when it ends, with the transport error if any.
    /// Cancelling the task closes the connection (and returns `.cancelled`).
    public static func run(_ request: HTTPRequest, head: @escaping @Sendable (HTTPResponseHead) -> Void,
                           body: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) async -> TransportError? {
        await run(request, head: head, continuing: { bytes in
            body(bytes)
            return true
        })
    }

    /// As `run(_:head:body:)`, but `continuing` may end the exchange: when it returns false
    /// the connection is closed (and `.cancelled` returned) — a reader that has had enough.
    public static func run(_ request: HTTPRequest, head: @escaping @Sendable (HTTPResponseHead) -> Void,
                           continuing: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async -> TransportError? {
        let started = Mutex<HTTPTransfer?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TransportError?, Never>) in
                let body: @Sendable (UnsafeRawBufferPointer) -> Void = { bytes in
                    if !continuing(bytes) { started.withLock { $0?.cancel() } }
                }
                let transfer = HTTPTransfer(request: request, handlers: HTTPTransferHandlers(
                    head: head, body: body, complete: { continuation.resume(returning: $0) }))
                started.withLock { $0 = transfer }
                if Task.isCancelled { transfer.cancel() }
                transfer.start()
            }
        } onCancel: {
            started.withLock { $0?.cancel() }
        }
    }

    /// Reports the outcome only once libcurl has let go of everything: a caller may exit the
    /// process as soon as it hears, and libcurl's cleanup must not race the exit's.
    private func run() {
        handlers.complete(exchange())
    }

    /// The whole exchange, its handles freed on return; nil error = complete response.
    private func exchange() -> TransportError? {
        guard agent_curl_available() != 0 else {
            return .failed(code: Int(CURLE_FAILED_INIT.rawValue),
                           message: tr("libcurl (libcurl.so.4) could not be loaded; install the libcurl4 package"))
        }
        guard let easy = agent_curl_easy_init(), let multi = agent_curl_multi_init() else {
            return .failed(code: Int(CURLE_FAILED_INIT.rawValue), message: tr("libcurl could not start a transfer"))
        }
        let exchange = CurlExchange(easy: easy, handlers: handlers)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer {
            control.withLock { $0.multi = nil }
            agent_curl_multi_remove_handle(multi, easy)
            agent_curl_easy_cleanup(easy)
            agent_curl_multi_cleanup(multi)
            agent_curl_slist_free_all(headerList)
        }
        let setupError = withExtendedLifetime(exchange) { () -> TransportError? in
            if let error = configure(easy, exchange: exchange, headerList: &headerList) { return error }
            control.withLock { $0.multi = MultiHandle(pointer: multi) }
            agent_curl_multi_add_handle(multi, easy)
            return nil
        }
        if let setupError { return setupError }
        let result = withExtendedLifetime(exchange) { perform(multi) }
        if isCancelled { return .cancelled }
        guard result == CURLE_OK else {
            return .failed(code: Int(result.rawValue), message: exchange.errorMessage(for: result))
        }
        exchange.deliverHeadIfNeeded()
        return nil
    }

    /// Drives the multi handle until the exchange ends or is cancelled.
    private func perform(_ multi: UnsafeMutableRawPointer) -> CURLcode {
        var running: Int32 = 1
        while running > 0 {
            if isCancelled { return CURLE_ABORTED_BY_CALLBACK }
            let code = agent_curl_multi_perform(multi, &running)
            if code != CURLM_OK { return CURLE_FAILED_INIT }
            if running == 0 { break }
            agent_curl_multi_poll(multi, 1000)
        }
        var remaining: Int32 = 0
        var result = CURLE_OK
        while let message = agent_curl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        return result
    }

    private func configure(_ easy: UnsafeMutableRawPointer, exchange: CurlExchange,
                           headerList: inout UnsafeMutablePointer<curl_slist>?) -> TransportError? {
        var codes: [CURLcode] = []
        codes.append(agent_curl_set_string(easy, CURLOPT_URL, request.url))
        codes.append(agent_curl_set_long(easy, CURLOPT_NOSIGNAL, 1))
        codes.append(agent_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        codes.append(agent_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeout.milliseconds))
        codes.append(agent_curl_set_long(easy, CURLOPT_TIMEOUT_MS, request.totalTimeout.milliseconds))
        if let idle = request.idleTimeout {
            // Less than one byte a second for this long: the server or the network stalled.
            codes.append(agent_curl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1))
            codes.append(agent_curl_set_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, idle.milliseconds / 1000)))
        }
        // Redirects are followed unless the request says not to (a server moved behind a
        // proxy), keeping the POST, never from https down to http; curl drops the
        // Authorization header, but no other, on the way to another host.
        codes.append(agent_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, request.followsRedirects ? 1 : 0))
        codes.append(agent_curl_set_long(easy, CURLOPT_MAXREDIRS, 5))
        codes.append(agent_curl_set_long(easy, CURLOPT_POSTREDIR, 7))  // CURL_REDIR_POST_ALL
        codes.append(agent_curl_set_string(easy, CURLOPT_REDIR_PROTOCOLS_STR,
                                           request.url.lowercased().hasPrefix("https:") ? "https" : "http,https"))
        if request.bypassesProxy { codes.append(agent_curl_set_string(easy, CURLOPT_NOPROXY, "*")) }
        codes.append(agent_curl_set_string(easy, CURLOPT_USERAGENT, "Agent/\(AppIdentity.version)"))
        codes.append(agent_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, exchange.errorBuffer))
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        codes.append(agent_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback))
        codes.append(agent_curl_set_pointer(easy, CURLOPT_WRITEDATA, context))
        codes.append(agent_curl_set_data_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback))
        codes.append(agent_curl_set_pointer(easy, CURLOPT_HEADERDATA, context))
        if let caFile = request.caFile {
            codes.append(agent_curl_set_string(easy, CURLOPT_CAINFO, caFile))
        }
        if let body = request.body {
            codes.append(body.withUnsafeBytes { bytes -> CURLcode in
                guard let base = bytes.baseAddress else { return agent_curl_set_body(easy, "", 0) }
                return agent_curl_set_body(easy, base.assumingMemoryBound(to: CChar.self), bytes.count)
            })
        }
        if request.method != "GET" && !(request.method == "POST" && request.body != nil) {
            codes.append(agent_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, request.method))
        }
        // "Expect:" stops curl from waiting for a 100 Continue before sending larger bodies.
        var lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        if let token = request.bearerToken { lines.append("Authorization: Bearer \(token)") }
        for line in lines { headerList = agent_curl_slist_append(headerList, line) }
        codes.append(agent_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList))
        if let failure = codes.first(where: { $0 != CURLE_OK }) {
            return .failed(code: Int(failure.rawValue), message: String(cString: agent_curl_easy_strerror(failure)))
        }
        return nil
    }
}

/// State shared with libcurl's callbacks for one exchange; lives on the transfer's thread.
private final class CurlExchange {
    let easy: UnsafeMutableRawPointer
    let handlers: HTTPTransferHandlers
    let errorBuffer: UnsafeMutablePointer<CChar>
    private var headers: [(name: String, value: String)] = []
    private var reason = ""
    private var headDelivered = false

    init(easy: UnsafeMutableRawPointer, handlers: HTTPTransferHandlers) {
        self.easy = easy
        self.handlers = handlers
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
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

    func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        deliverHeadIfNeeded()
        handlers.body(bytes)
    }

    func deliverHeadIfNeeded() {
        guard !headDelivered else { return }
        headDelivered = true
        let status = agent_curl_response_code(easy)
        let phrase = reason.isEmpty ? HTTPReasonPhrase.standard(for: status) : reason
        handlers.head(HTTPResponseHead(status: status, reason: phrase, headers: headers))
    }

    func errorMessage(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: agent_curl_easy_strerror(code)) : detail
    }
}

private let curlWriteCallback: agent_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    exchange.receiveBody(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

private let curlHeaderCallback: agent_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    exchange.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}
