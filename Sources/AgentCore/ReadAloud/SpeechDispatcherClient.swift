import CSpeech
import Dispatch
import Synchronization

/// A connection to speech-dispatcher through libspeechd (loaded on first use), opened when
/// first asked to speak and used from one serial queue: opening it may start the service
/// (about a second and a half), and each call waits for the service's answer. What the
/// service reports comes on libspeechd's own thread and goes to `events` as it arrives.
final class SpeechDispatcherClient: Sendable {
    private let address: SpeechAddress
    private let language: String
    private let events: @Sendable (SpeechEvent) -> Void
    private let queue = DispatchQueue(label: "agent.speech")
    /// Touched on `queue` only.
    nonisolated(unsafe) private var connection: UnsafeMutablePointer<SPDConnection>?

    init(address: SpeechAddress, language: String, events: @escaping @Sendable (SpeechEvent) -> Void) {
        self.address = address
        self.language = language
        self.events = events
    }

    /// Reads `ssml`; request `request` is reported `queued` with the service's message id, or `failed`.
    func speak(_ ssml: String, request: Int) {
        queue.async { [self] in
            // A service that went away since (it ends when idle) is started again once.
            for attempt in 0..<2 {
                let opened: UnsafeMutablePointer<SPDConnection>
                switch open() {
                case .success(let connection): opened = connection
                case .failure(let reason):
                    events(.failed(request: request, reason: reason.description))
                    return
                }
                let message = agent_speech_say(opened, ssml)
                if message >= 0 {
                    events(.queued(request: request, message: Int(message)))
                    return
                }
                drop()
                if attempt == 1 { events(.failed(request: request, reason: tr("speech-dispatcher did not take the text"))) }
            }
        }
    }

    /// Ends what is being read (the service reports `cancel`).
    func cancel() {
        queue.async { [self] in
            if let connection { _ = agent_speech_cancel(connection) }
        }
    }

    /// Ends what is being read and closes the connection, before returning (the app is ending:
    /// the service would otherwise read on).
    func closeNow() {
        queue.sync {
            if let connection { _ = agent_speech_cancel(connection) }
            drop()
        }
    }

    private struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private func open() -> Result<UnsafeMutablePointer<SPDConnection>, Unavailable> {
        if let connection { return .success(connection) }
        var error: UnsafeMutablePointer<CChar>?
        let opened: UnsafeMutablePointer<SPDConnection>? = address.socketPath.withOptionalCString { path in
            agent_speech_open(path, address.autospawn ? 1 : 0, language, Self.sink, &error)
        }
        guard let opened else {
            guard let error else { return .failure(Unavailable(description: tr("speech-dispatcher’s client library, libspeechd, is not installed"))) }
            let reason = String(cString: error).trimmed
            free(error)
            return .failure(Unavailable(description: reason.isEmpty ? tr("speech-dispatcher could not be reached") : reason))
        }
        let events = events
        Self.routes.withLock { $0[Int(agent_speech_client_id(opened))] = events }
        connection = opened
        return .success(opened)
    }

    private func drop() {
        guard let opened = connection else { return }
        connection = nil
        let client = Int(agent_speech_client_id(opened))
        agent_speech_close(opened)
        Self.routes.withLock { $0[client] = nil }
    }

    /// Where each open connection's reports go, by its client id (libspeechd's callbacks carry
    /// no context of their own).
    private static let routes = Mutex<[Int: @Sendable (SpeechEvent) -> Void]>([:])

    private static let sink: agent_speech_sink = { kind, message, client, mark in
        let id = Int(message)
        let event: SpeechEvent? = switch kind {
        case AGENT_SPEECH_BEGIN: .begin(message: id)
        case AGENT_SPEECH_END: .end(message: id)
        case AGENT_SPEECH_CANCEL: .cancel(message: id)
        case AGENT_SPEECH_MARK: mark.map { .mark(message: id, name: String(cString: $0)) }
        default: nil
        }
        guard let event, let route = routes.withLock({ $0[Int(client)] }) else { return }
        route(event)
    }
}

private extension Optional where Wrapped == String {
    func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        guard let self else { return body(nil) }
        return self.withCString { body($0) }
    }
}
