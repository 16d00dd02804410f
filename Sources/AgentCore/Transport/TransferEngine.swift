import CCurl
import FoundationEssentials
import Synchronization

/// Every HTTP transfer of the process runs on one libcurl multi handle, driven by one thread
/// of its own, so consecutive requests to a server reuse its kept-alive connection (no new
/// TCP and TLS handshakes before the first token) and new connections resume TLS sessions.
/// Bytes are handed on the moment they arrive, on the engine's thread: a handler must not
/// block, or every transfer of the process waits. libcurl retries a request once on a fresh
/// connection when a reused one turns out to have been closed by the server before any of the
/// response came (a POST may then reach a server twice, if it acted and closed without
/// answering). Cancelling a transfer removes only its own handle, which closes only its own
/// connection (or stream). With nothing to do for `linger`, the engine ends its thread and
/// closes what it kept (connections, its wake-up socket pair); the next transfer starts it again.
final class TransferEngine: Sendable {
    /// Two minutes: libcurl does not reuse a connection idle for longer (its 118 s
    /// `CURLOPT_MAXAGE_CONN`), so an engine kept past that would keep only TLS sessions.
    static let shared = TransferEngine(linger: .seconds(120))

    /// How long the engine waits with no transfer before it ends.
    let linger: Duration

    init(linger: Duration) {
        self.linger = linger
    }

    /// Transfers waiting for the engine's thread: started, or cancelled, since it last looked.
    private struct Queue {
        var added: [HTTPTransfer] = []
        var cancelled: [HTTPTransfer] = []
        var handles: Handles?
    }

    /// The multi handle and TLS session share; only the engine's thread uses them, except
    /// `curl_multi_wakeup`, which libcurl allows from any thread.
    private struct Handles: @unchecked Sendable {
        let multi: UnsafeMutableRawPointer
        let share: UnsafeMutableRawPointer?

        /// Frees the multi handle, closing the connections it kept, then the share it used.
        func free() {
            agent_curl_multi_cleanup(multi)
            if let share { agent_curl_share_cleanup(share) }
        }
    }

    private let queue = Mutex(Queue())

    /// Hands `transfer` to the engine's thread (started on first use); the error when it
    /// cannot be run, and then it is not started.
    func add(_ transfer: HTTPTransfer) -> TransportError? {
        guard agent_curl_available() != 0 else {
            return .failed(code: Int(CURLE_FAILED_INIT.rawValue),
                           message: tr("libcurl (libcurl.so.4) could not be loaded; install the libcurl4 package"))
        }
        let accepted = queue.withLock { queue -> (handles: Handles, startsThread: Bool)? in
            if let handles = queue.handles {
                queue.added.append(transfer)
                // Under the lock: once it is released the thread may take the transfer, end it,
                // retire and free the multi handle.
                agent_curl_multi_wakeup(handles.multi)
                return (handles, false)
            }
            guard let multi = agent_curl_multi_init() else { return nil }
            // Idle connections kept for reuse: a few servers (a model, MCP servers) at a time,
            // with room for a test run's many.
            agent_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 64)
            let handles = Handles(multi: multi, share: agent_curl_share_tls_sessions())
            queue.handles = handles
            queue.added.append(transfer)
            return (handles, true)
        }
        guard let accepted else { return Self.cannotStart }
        guard accepted.startsThread else { return nil }
        let handles = accepted.handles
        if DetachedThread.tryStart({ EngineLoop(handles: handles, engine: self).run() }) { return nil }
        // No thread for the engine: the transfers handed over meanwhile fail with this one.
        let stranded = queue.withLock { queue -> [HTTPTransfer] in
            defer { queue = Queue() }
            return queue.added
        }
        handles.free()
        for other in stranded where other !== transfer { other.handlers.complete(Self.cannotStart) }
        return Self.cannotStart
    }

    private static var cannotStart: TransportError {
        .failed(code: Int(CURLE_FAILED_INIT.rawValue), message: tr("libcurl could not start a transfer"))
    }

    /// Asks the engine's thread to end `transfer`; it completes with `.cancelled`. With no
    /// engine running no transfer is under way, so there is nothing to end.
    func cancel(_ transfer: HTTPTransfer) {
        queue.withLock { queue in
            guard let handles = queue.handles else { return }
            queue.cancelled.append(transfer)
            agent_curl_multi_wakeup(handles.multi)
        }
    }

    /// Whether the engine holds its handles: from the first transfer until it retires (its
    /// thread may still be cleaning up just after). For tests.
    var isRunning: Bool { queue.withLock { $0.handles != nil } }

    /// Lets the engine go, unless a transfer was handed over since its thread last looked;
    /// once it has, the next `add` starts a new one.
    fileprivate func retire() -> Bool {
        queue.withLock { queue in
            guard queue.added.isEmpty else { return false }
            queue = Queue()
            return true
        }
    }

    fileprivate func takeQueued() -> (added: [HTTPTransfer], cancelled: [HTTPTransfer]) {
        queue.withLock { queue in
            defer {
                queue.added = []
                queue.cancelled = []
            }
            return (queue.added, queue.cancelled)
        }
    }

    /// The engine's thread: starts queued transfers, drives libcurl, ends transfers and
    /// reports them, and waits in `curl_multi_poll` until a socket, a timer of libcurl's or
    /// a wake-up from `add`/`cancel` needs it; idle for the engine's linger, it cleans up and ends.
    private struct EngineLoop {
        let handles: Handles
        let engine: TransferEngine

        func run() {
            var running: [ObjectIdentifier: CurlExchange] = [:]
            var idleSince: ContinuousClock.Instant?
            while true {
                let (added, cancelled) = engine.takeQueued()
                // Anything handed over starts the idle time again, even a transfer that ends at once.
                if !added.isEmpty || !cancelled.isEmpty { idleSince = nil }
                for transfer in added {
                    if let exchange = start(transfer) { running[ObjectIdentifier(transfer)] = exchange }
                }
                for transfer in cancelled {
                    if let exchange = running.removeValue(forKey: ObjectIdentifier(transfer)) {
                        end(exchange, result: CURLE_ABORTED_BY_CALLBACK)
                    }
                }
                var active: Int32 = 0
                agent_curl_multi_perform(handles.multi, &active)
                var remaining: Int32 = 0
                while let message = agent_curl_multi_info_read(handles.multi, &remaining) {
                    guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                          let key = running.first(where: { $0.value.easy == easy })?.key,
                          let exchange = running.removeValue(forKey: key) else { continue }
                    end(exchange, result: message.pointee.data.result)
                }
                var wait = endStalled(&running)
                if running.isEmpty {
                    let since = idleSince ?? .now
                    idleSince = since
                    let left = engine.linger - (ContinuousClock.now - since)
                    if left <= .zero, engine.retire() { break }
                    wait = min(wait, max(left, .zero))
                } else {
                    idleSince = nil
                }
                agent_curl_multi_poll(handles.multi, Int32(clamping: wait.milliseconds + 1))
            }
            handles.free()
        }

        /// Ends the exchanges that have been quiet for their idle timeout; how long the loop
        /// may wait before the next one would be (at most a minute).
        private func endStalled(_ running: inout [ObjectIdentifier: CurlExchange]) -> Duration {
            let now = ContinuousClock.now
            var wait = Duration.seconds(60)
            for (key, exchange) in running {
                guard let (left, limit) = exchange.idleTimeLeft(at: now) else { continue }
                if left > .zero {
                    wait = min(wait, left)
                } else {
                    running.removeValue(forKey: key)
                    let stalled = TransportError.stalled(seconds: max(1, Int(limit.milliseconds / 1000)))
                    end(exchange, outcome: exchange.transfer.isCancelled ? .cancelled : stalled)
                }
            }
            return wait
        }

        /// Configures the transfer's easy handle and adds it; nil when it ended at once
        /// (cancelled before it began, or refused by libcurl), already reported.
        private func start(_ transfer: HTTPTransfer) -> CurlExchange? {
            guard !transfer.isCancelled else {
                transfer.handlers.complete(.cancelled)
                return nil
            }
            guard let easy = agent_curl_easy_init() else {
                transfer.handlers.complete(TransferEngine.cannotStart)
                return nil
            }
            let exchange = CurlExchange(easy: easy, transfer: transfer)
            if let error = transfer.configure(exchange, share: handles.share) {
                exchange.close()
                transfer.handlers.complete(error)
                return nil
            }
            guard agent_curl_multi_add_handle(handles.multi, easy) == CURLM_OK else {
                exchange.close()
                transfer.handlers.complete(TransferEngine.cannotStart)
                return nil
            }
            return exchange
        }

        /// Removes the exchange's handle (closing its connection unless it ended cleanly) and
        /// reports the outcome once libcurl has let go of the handle.
        private func end(_ exchange: CurlExchange, result: CURLcode) {
            end(exchange, outcome: exchange.outcome(result))
        }

        private func end(_ exchange: CurlExchange, outcome: TransportError?) {
            agent_curl_multi_remove_handle(handles.multi, exchange.easy)
            exchange.close()
            exchange.transfer.handlers.complete(outcome)
        }
    }
}
