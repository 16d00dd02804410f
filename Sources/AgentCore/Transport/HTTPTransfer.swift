import CCurl
import FoundationEssentials
import Synchronization

/// What a transfer reports, in order, on the transfer engine's thread, which every transfer
/// shares (so a handler must not block): the head once (before any body), body chunks as they
/// arrive, then completion once (nil error = complete response).
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

/// One HTTP exchange over libcurl, run by a `TransferEngine` (the process's own unless a test
/// gives it another): bytes are handed on the moment they arrive, on the engine's thread, and
/// a connection to the same server is reused from one exchange to the next. `cancel()` may be
/// called from any thread: the engine wakes and closes the exchange's connection within a
/// millisecond or so.
public final class HTTPTransfer: Sendable {
    private let request: HTTPRequest
    let handlers: HTTPTransferHandlers
    private let cancelled = Atomic(false)
    private let engine: TransferEngine

    public convenience init(request: HTTPRequest, handlers: HTTPTransferHandlers) {
        self.init(request: request, handlers: handlers, engine: .shared)
    }

    /// A transfer run by `engine` rather than the process's (tests give it an engine of their own).
    init(request: HTTPRequest, handlers: HTTPTransferHandlers, engine: TransferEngine) {
        self.request = request
        self.handlers = handlers
        self.engine = engine
    }

    /// Starts the exchange; the engine keeps the transfer alive until it completes.
    public func start() {
        if let error = engine.add(self) { handlers.complete(error) }
    }

    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        engine.cancel(self)
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// How long the exchange may go without a byte coming or going (the engine keeps it).
    var idleTimeout: Duration? { request.idleTimeout }

    /// Runs one exchange in the calling task: `head` and `body` run on the engine's
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
        await run(request, engine: .shared, head: head, continuing: continuing)
    }

    /// As `run(_:head:continuing:)`, run by `engine`.
    static func run(_ request: HTTPRequest, engine: TransferEngine, head: @escaping @Sendable (HTTPResponseHead) -> Void,
                    continuing: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool) async -> TransportError? {
        let started = Mutex<HTTPTransfer?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TransportError?, Never>) in
                let body: @Sendable (UnsafeRawBufferPointer) -> Void = { bytes in
                    if !continuing(bytes) { started.withLock { $0?.cancel() } }
                }
                let transfer = HTTPTransfer(request: request, handlers: HTTPTransferHandlers(
                    head: head, body: body, complete: { continuation.resume(returning: $0) }), engine: engine)
                started.withLock { $0 = transfer }
                if Task.isCancelled { transfer.cancel() }
                transfer.start()
            }
        } onCancel: {
            started.withLock { $0?.cancel() }
        }
    }

    /// Sets the request on the exchange's easy handle; the error when libcurl refuses it.
    func configure(_ exchange: CurlExchange, share: UnsafeMutableRawPointer?) -> TransportError? {
        let easy = exchange.easy
        var codes: [CURLcode] = []
        codes.append(agent_curl_set_string(easy, CURLOPT_URL, request.url))
        codes.append(agent_curl_set_long(easy, CURLOPT_NOSIGNAL, 1))
        if let share { codes.append(agent_curl_set_pointer(easy, CURLOPT_SHARE, share)) }
        codes.append(agent_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        codes.append(agent_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeout.milliseconds))
        codes.append(agent_curl_set_long(easy, CURLOPT_TIMEOUT_MS, request.totalTimeout.milliseconds))
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
        for line in lines { exchange.headerList = agent_curl_slist_append(exchange.headerList, line) }
        codes.append(agent_curl_set_pointer(easy, CURLOPT_HTTPHEADER, exchange.headerList))
        if let failure = codes.first(where: { $0 != CURLE_OK }) {
            return .failed(code: Int(failure.rawValue), message: String(cString: agent_curl_easy_strerror(failure)))
        }
        return nil
    }
}
