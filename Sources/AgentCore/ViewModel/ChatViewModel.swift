import Foundation

/// The state the chat window shows and the user's intents on it, free of any toolkit:
/// the GTK window binds to it, `agent-cli` drives it, tests run it headless.
@MainActor
public final class ChatViewModel {
    /// What changed, so a view updates only that part.
    public enum Change: Equatable, Sendable {
        case messageInserted(Int)
        case messageChanged(Int)
        case messageRemoved(Int)
        /// Draft, sending state or whether Send is possible.
        case composer
        /// The error message or whether to show it.
        case error
        /// The model name or the connection status line.
        case status
        /// A tool asks for the user's consent (see `consent`).
        case consentRequested
    }

    /// What the connection is doing, for the header's subtitle.
    public enum ConnectionStatus: Equatable, Sendable {
        case idle
        case starting
        case ready
        case unavailable(String)
    }

    public private(set) var conversation = Conversation()
    public private(set) var isSending = false
    public private(set) var errorMessage = ""
    public private(set) var showError = false
    public private(set) var connectionStatus = ConnectionStatus.idle
    public let connection: ChatConnection
    /// Questions tools ask the user (location consent); the window answers them.
    public let consent: ConsentBroker
    /// Identifies this chat to a server that keeps the context itself (the seed's harness).
    public let harnessAppID: String

    /// The text in the entry. Kept here so a failed send can give it back.
    public var draft = "" {
        didSet { if draft != oldValue { notify(.composer) } }
    }

    /// The placeholder the entry shows, as in the seed.
    public let instruction = "Type a message…"

    private var observers: [(Change) -> Void] = []
    private var currentTask: Task<Void, Never>?

    public init(connection: ChatConnection, consent: ConsentBroker = ConsentBroker(),
                harnessAppID: String = "\(AppIdentity.applicationID).\(UUID().uuidString.lowercased())") {
        self.connection = connection
        self.consent = consent
        self.harnessAppID = harnessAppID
        consent.onRequest = { [weak self] in self?.notify(.consentRequested) }
    }

    /// The window's answer to a pending consent question.
    public func answerConsent(_ answer: LocationConsent) {
        consent.answer(answer)
    }

    /// Send is possible with some text and nothing in flight.
    public var canSend: Bool {
        !isSending && !draft.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    public var modelName: String { connection.modelName }

    /// Registers a handler for every change; the view's single way to learn of them.
    public func observe(_ handler: @escaping (Change) -> Void) {
        observers.append(handler)
    }

    /// Gets the connection ready ahead of the first message (starts the local model).
    public func prepare() {
        guard connection.isLocal, connectionStatus == .idle else {
            if !connection.isLocal { setStatus(.ready) }
            return
        }
        setStatus(.starting)
        Task {
            do {
                _ = try await connection.backend()
                setStatus(.ready)
            } catch {
                setStatus(.unavailable(ChatError.describe(error)))
                report(error)
            }
        }
    }

    /// Sends the draft and streams the reply into the conversation.
    public func send() {
        guard canSend else { return }
        let text = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        draft = ""
        let userMessage = ChatMessage(role: .user, text: text, state: .sending)
        let reply = ChatMessage(role: .assistant, text: "", model: connection.modelName, state: .sending)
        append(userMessage)
        append(reply)
        isSending = true
        notify(.composer)
        currentTask = Task {
            await stream(reply: reply.id, after: userMessage.id)
            isSending = false
            currentTask = nil
            notify(.composer)
        }
    }

    /// Stops the reply in flight; what arrived so far stays, marked as stopped.
    public func stop() {
        currentTask?.cancel()
        if consent.isAsking { consent.answer(.deny) }
    }

    /// Waits until the reply in flight (if any) has ended.
    public func waitUntilIdle() async {
        await currentTask?.value
    }

    /// The user closed the error alert.
    public func dismissError() {
        guard showError else { return }
        showError = false
        errorMessage = ""
        notify(.error)
    }

    private func stream(reply replyID: UUID, after userID: UUID) async {
        let relay = MainActorRelay<ChatTurn.Event> { [weak self] events in
            self?.receive(events, reply: replyID, user: userID)
        }
        do {
            let turn = try await connection.turn(appID: harnessAppID)
            if connection.isLocal { setStatus(.ready) }
            guard let userIndex = conversation.index(of: userID) else { return }
            try await turn.run(context: conversation.context(through: userIndex)) { relay.push($0) }
            relay.flush()
            finish(replyID, as: Task.isCancelled ? .stopped : .done, userID: userID)
        } catch {
            relay.flush()
            let hasText = conversation.index(of: replyID).map { !conversation[$0].text.isEmpty } ?? false
            switch error {
            case ChatError.cutOff where hasText, ChatError.toolRoundLimit:
                finish(replyID, as: .cutOff, userID: userID)
            default:
                finish(replyID, as: .failed, userID: userID)
            }
            report(error)
        }
    }

    /// Applies a batch of turn events (on the main actor) with one change notification.
    private func receive(_ events: [ChatTurn.Event], reply replyID: UUID, user userID: UUID) {
        guard let index = conversation.index(of: replyID) else { return }
        if conversation[index].state == .sending { markDelivered(userID, reply: index) }
        for event in events {
            switch event {
            case .reply(let reply):
                apply(reply, to: index)
            case .toolStarted(let call):
                conversation[index].toolCalls.append(call)
            case .toolFinished(let call):
                if let position = conversation[index].toolCalls.lastIndex(where: { $0.id == call.id && $0.result == nil }) {
                    conversation[index].toolCalls[position] = call
                } else {
                    conversation[index].toolCalls.append(call)
                }
            case .problem(let message):
                report(message)
            }
        }
        notify(.messageChanged(index))
    }

    private func apply(_ event: ReplyEvent, to index: Int) {
        switch event {
        case .started(let model, _):
            if let model, !model.isEmpty { conversation[index].model = model }
        case .usage(let usage):
            conversation[index].usage = usage
        default:
            if let text = event.transcriptText(replyIsEmpty: conversation[index].text.isEmpty) {
                conversation.appendText(text, to: index)
            }
        }
    }

    private func markDelivered(_ userID: UUID, reply index: Int) {
        if let userIndex = conversation.index(of: userID), conversation[userIndex].state == .sending {
            conversation[userIndex].state = .done
            notify(.messageChanged(userIndex))
        }
        conversation[index].state = .streaming
        conversation[index].time = Date()
    }

    /// Settles both messages once the exchange is over. A reply that never got any text (nor
    /// called a tool) is removed; its user message, never delivered, is marked failed and given back to the
    /// entry so nothing the user typed is lost.
    private func finish(_ replyID: UUID, as state: MessageState, userID: UUID) {
        var delivered = false
        if let index = conversation.index(of: replyID) {
            delivered = conversation[index].state != .sending
            if conversation[index].text.isEmpty && conversation[index].toolCalls.isEmpty {
                conversation.remove(at: index)
                notify(.messageRemoved(index))
            } else {
                conversation[index].state = state
                notify(.messageChanged(index))
            }
        }
        guard let userIndex = conversation.index(of: userID) else { return }
        if delivered || state == .stopped {
            if conversation[userIndex].state == .sending {
                conversation[userIndex].state = .done
                notify(.messageChanged(userIndex))
            }
        } else {
            conversation[userIndex].state = .failed
            notify(.messageChanged(userIndex))
            if draft.isEmpty { draft = conversation[userIndex].text }
        }
    }

    private func report(_ error: any Error) {
        report(ChatError.describe(error))
    }

    private func report(_ message: String) {
        errorMessage = showError && !errorMessage.isEmpty ? errorMessage + "\n\n" + message : message
        showError = true
        notify(.error)
    }

    private func setStatus(_ status: ConnectionStatus) {
        guard status != connectionStatus else { return }
        connectionStatus = status
        notify(.status)
    }

    private func append(_ message: ChatMessage) {
        conversation.append(message)
        notify(.messageInserted(conversation.count - 1))
    }

    private func notify(_ change: Change) {
        for observer in observers { observer(change) }
    }
}
