/// Carries tools' questions for the user's consent to the window and the answers back, one
/// at a time: the view model shows that a question is pending (`current`), the window asks,
/// `answer` resumes whoever waits on it. The same question asked again while it is open is
/// answered once for all. Without a window to ask, nobody answers and the request is denied.
@MainActor
public final class ConsentBroker {
    private var queue: [(question: ConsentQuestion, waiting: [CheckedContinuation<Consent, Never>])] = []
    /// Called when a question starts waiting to be shown (the view model forwards it to the window).
    public var onRequest: (() -> Void)?
    /// Called when the shown question was answered, by whoever answered it.
    public var onSettled: (() -> Void)?

    public init() {}

    public var isAsking: Bool { !queue.isEmpty }

    /// The question the window should show now.
    public var current: ConsentQuestion? { queue.first?.question }

    /// Asks and waits for the answer.
    public func ask(_ question: ConsentQuestion = .location) async -> Consent {
        guard let onRequest else { return .deny }
        return await withCheckedContinuation { continuation in
            if let index = queue.firstIndex(where: { $0.question == question }) {
                queue[index].waiting.append(continuation)
                return
            }
            queue.append((question, [continuation]))
            if queue.count == 1 { onRequest() }
        }
    }

    /// Answers the current question; the next one, if any, is asked next.
    public func answer(_ consent: Consent) {
        guard !queue.isEmpty else { return }
        let answered = queue.removeFirst()
        for continuation in answered.waiting { continuation.resume(returning: consent) }
        onSettled?()
        if !queue.isEmpty { onRequest?() }
    }

    /// Denies the open questions a reply asked (it was stopped); a server's launch
    /// question stays.
    public func denyReplyQuestions() {
        let wasShowing = queue.first?.question
        let denied = queue.filter { !$0.question.isLaunch }
        guard !denied.isEmpty else { return }
        queue.removeAll { !$0.question.isLaunch }
        for entry in denied { for continuation in entry.waiting { continuation.resume(returning: .deny) } }
        if wasShowing != queue.first?.question {
            onSettled?()
            if !queue.isEmpty { onRequest?() }
        }
    }
}
