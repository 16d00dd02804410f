/// Carries a tool's request for the user's consent to the window and the answer back: the
/// view model shows that a question is pending, the window asks, `answer` resumes the tool.
/// Without a window to ask, nobody answers and the request is denied.
@MainActor
public final class ConsentBroker {
    private var waiting: [CheckedContinuation<LocationConsent, Never>] = []
    /// Called when a question starts waiting (the view model forwards it to the window).
    public var onRequest: (() -> Void)?
    /// Called when the question was answered, by whoever answered it.
    public var onSettled: (() -> Void)?

    public init() {}

    public var isAsking: Bool { !waiting.isEmpty }

    /// Asks (once for all callers waiting at the same time) and waits for the answer.
    public func ask() async -> LocationConsent {
        guard let onRequest else { return .deny }
        return await withCheckedContinuation { continuation in
            waiting.append(continuation)
            if waiting.count == 1 { onRequest() }
        }
    }

    public func answer(_ consent: LocationConsent) {
        guard !waiting.isEmpty else { return }
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume(returning: consent) }
        onSettled?()
    }
}
