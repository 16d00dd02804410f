import FoundationEssentials

/// The state the chat window shows and the user's intents on it, free of any toolkit:
/// the GTK window binds to it, tests run it headless. With a store it works on one saved
/// chat at a time: messages are saved as they are written (a streaming reply about once a
/// second), only the newest page is loaded, and earlier pages come on demand.
@MainActor
public final class ChatViewModel {
    /// What changed, so a view updates only that part.
    public enum Change: Equatable, Sendable {
        case messageInserted(Int)
        case messageChanged(Int)
        case messageRemoved(Int)
        /// The whole conversation was replaced (another chat opened, earlier messages loaded).
        case reloaded
        /// Draft, sending state, editing state or whether Send is possible.
        case composer
        /// The error message or whether to show it.
        case error
        /// The model name or the connection status line.
        case status
        /// A tool asks for the user's consent (see `consent`).
        case consentRequested
        /// A reply came to its end (done, or cut off), e.g. for a notification.
        case replyFinished(Int)
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
    public private(set) var connection: ChatConnection
    /// Questions tools ask the user (location consent); the window answers them.
    public let consent: ConsentBroker
    /// Where chats are kept; nil keeps this conversation in memory only.
    public let store: ChatStore?
    /// The chat on screen; nil until a new chat's first message.
    public private(set) var chat: ChatSummary?
    /// Whether older messages of this chat are in the store but not loaded.
    public private(set) var hasEarlierMessages = false
    /// The user message being edited: sending replaces it and everything after it.
    public private(set) var editingMessageID: UUID?
    /// The context budget in estimated tokens (system prompt and newest turn always go).
    public var contextBudget = 4096
    /// The system prompt new chats start with.
    public var defaultSystemPrompt = ""
    /// Told when the current chat was created or changed, so the chat list can follow.
    public var onChatSaved: ((ChatSummary) -> Void)?

    /// The text in the entry. Kept here so a failed send can give it back.
    public var draft = "" {
        didSet { if draft != oldValue { notify(.composer) } }
    }

    /// The placeholder the entry shows, as in the seed.
    public let instruction = "Type a message…"

    /// How many messages a chat opens with; earlier ones load a page at a time.
    public static let pageSize = 30

    private let harnessAppIDPrefix: String
    private let sessionID = UUID()
    private var observers: [(Change) -> Void] = []
    private var currentTask: Task<Void, Never>?
    /// Changes whenever the conversation is replaced, so a reply of the old one stops writing.
    private var generation = 0
    private var seqs: [UUID: Int] = [:]
    private var nextSeq = 0
    /// The reply being streamed.
    private var inFlight: UUID?
    /// The recorder of the latest reply, kept after it ends until its last save has landed.
    private var recorder: ReplyRecorder?

    public init(connection: ChatConnection, consent: ConsentBroker = ConsentBroker(), store: ChatStore? = nil,
                harnessAppIDPrefix: String = AppIdentity.applicationID) {
        self.connection = connection
        self.consent = consent
        self.store = store
        self.harnessAppIDPrefix = harnessAppIDPrefix
        consent.onRequest = { [weak self] in self?.notify(.consentRequested) }
    }

    /// Identifies this chat to a server that keeps the context itself (the seed's harness):
    /// stable per installation (the prefix) and per chat.
    public var harnessAppID: String {
        "\(harnessAppIDPrefix).\((chat?.id ?? sessionID).uuidString.lowercased())"
    }

    /// The window's answer to a pending consent question.
    public func answerConsent(_ answer: LocationConsent) {
        consent.answer(answer)
    }

    /// Send is possible with some text and nothing in flight.
    public var canSend: Bool {
        !isSending && !draft.trimmed.isEmpty
    }

    /// Whether the last reply can be asked for again.
    public var canRegenerate: Bool {
        !isSending && conversation.messages.last?.role == .assistant
            && conversation.messages.contains { $0.role == .user }
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

    /// Switches to another server or model (Preferences): a reply in flight is stopped and
    /// kept, what the old connection ran (the local model server) is stopped.
    public func use(_ newConnection: ChatConnection) {
        abandonReply()
        connection.shutdown()
        connection = newConnection
        connectionStatus = .idle
        notify(.status)
        notify(.composer)
        prepare()
    }

    // MARK: Chats

    /// Shows a saved chat: its newest page, or the page around `message` (a search hit).
    public func open(_ chatID: UUID, focusing message: UUID? = nil) throws {
        guard let summary = try settledStore?.chat(chatID) else { return }
        abandonReply()
        guard let store = settledStore else { return }
        var loaded: [StoredMessage]
        if let message, let seq = try store.seq(of: message) {
            let before = try store.messages(in: chatID, before: seq, limit: 20)
            loaded = before + (try store.messages(in: chatID, from: seq))
        } else {
            loaded = try store.messages(in: chatID, limit: Self.pageSize)
        }
        chat = summary
        hasEarlierMessages = (loaded.first?.seq ?? 0) > 0
        seqs = Dictionary(uniqueKeysWithValues: loaded.map { ($0.message.id, $0.seq) })
        nextSeq = try store.nextSeq(in: chatID)
        conversation = Conversation(messages: loaded.map(\.message))
        editingMessageID = nil
        notify(.reloaded)
        notify(.composer)
    }

    /// An empty chat; it is saved with its first message.
    public func startNewChat() {
        abandonReply()
        chat = nil
        hasEarlierMessages = false
        seqs = [:]
        nextSeq = 0
        conversation = Conversation()
        editingMessageID = nil
        notify(.reloaded)
        notify(.composer)
    }

    /// Loads the page before the first loaded message; returns how many came.
    @discardableResult
    public func loadEarlier() -> Int {
        guard hasEarlierMessages, let store = settledStore, let chat, let first = conversation.messages.first,
              let firstSeq = seqs[first.id],
              let page = try? store.messages(in: chat.id, before: firstSeq, limit: Self.pageSize), !page.isEmpty else {
            hasEarlierMessages = false
            return 0
        }
        for stored in page { seqs[stored.message.id] = stored.seq }
        conversation = Conversation(messages: page.map(\.message) + conversation.messages)
        hasEarlierMessages = (page.first?.seq ?? 0) > 0
        for index in 0..<page.count { notify(.messageInserted(index)) }
        return page.count
    }

    /// Renames the current chat (the chat list does it for others).
    public func chatRenamed(_ summary: ChatSummary) {
        if chat?.id == summary.id { chat = summary }
    }

    // MARK: Sending

    /// Sends the draft (replacing the message being edited, if any) and streams the reply.
    public func send() {
        guard canSend else { return }
        let text = draft.trimmed
        if let editing = editingMessageID, let index = conversation.index(of: editing) {
            truncate(from: index)
        }
        editingMessageID = nil
        ensureChat(firstPrompt: text)
        draft = ""
        let userMessage = ChatMessage(role: .user, text: text, state: .sending)
        append(userMessage)
        startReply(to: userMessage.id)
    }

    /// Asks again for the last reply: it is replaced by a new one to the same message.
    public func regenerate() {
        guard canRegenerate, let userIndex = conversation.messages.lastIndex(where: { $0.role == .user }) else { return }
        truncate(from: userIndex + 1)
        let userID = conversation[userIndex].id
        conversation[userIndex].state = .sending
        notify(.messageChanged(userIndex))
        startReply(to: userID)
    }

    /// Puts a user message back in the entry; sending replaces it and all that followed.
    public func beginEdit(_ messageID: UUID) {
        guard !isSending, let index = conversation.index(of: messageID), conversation[index].role == .user else { return }
        editingMessageID = messageID
        draft = conversation[index].text
        notify(.composer)
    }

    public func cancelEdit() {
        guard editingMessageID != nil else { return }
        editingMessageID = nil
        draft = ""
        notify(.composer)
    }

    /// Stops the reply in flight; what arrived so far stays, marked as stopped.
    public func stop() {
        currentTask?.cancel()
        if consent.isAsking { consent.answer(.deny) }
    }

    /// Waits until the reply in flight (if any) has ended and been saved.
    public func waitUntilIdle() async {
        await currentTask?.value
        recorder?.flush()
    }

    /// Waits until the last reply's saves have landed (quitting).
    public func finishSaving() {
        recorder?.flush()
    }

    /// The user closed the error alert.
    public func dismissError() {
        guard showError else { return }
        showError = false
        errorMessage = ""
        notify(.error)
    }

    private func startReply(to userID: UUID) {
        let reply = ChatMessage(role: .assistant, text: "", model: connection.modelName, state: .sending)
        append(reply)
        let recorder = settledStore.flatMap { store in chat.map { ReplyRecorder(store: store, chat: $0.id) } }
        self.recorder = recorder
        inFlight = reply.id
        isSending = true
        notify(.composer)
        let generation = generation
        currentTask = Task {
            await stream(reply: reply.id, after: userID, generation: generation, recorder: recorder)
            guard generation == self.generation else { return }
            isSending = false
            currentTask = nil
            inFlight = nil
            notify(.composer)
        }
    }

    private func stream(reply replyID: UUID, after userID: UUID, generation: Int, recorder: ReplyRecorder?) async {
        let relay = MainActorRelay<ChatTurn.Event> { [weak self] events in
            guard let self, generation == self.generation else { return }
            receive(events, reply: replyID, user: userID, recorder: recorder)
        }
        do {
            let turn = try await connection.turn(appID: harnessAppID)
            if connection.isLocal { setStatus(.ready) }
            guard let userIndex = conversation.index(of: userID) else { return }
            try await turn.run(context: requestContext(through: userIndex)) { relay.push($0) }
            relay.flush()
            guard generation == self.generation else { return }
            finish(replyID, as: Task.isCancelled ? .stopped : .done, userID: userID, recorder: recorder)
        } catch {
            relay.flush()
            guard generation == self.generation else { return }
            let hasText = conversation.index(of: replyID).map { !conversation[$0].text.isEmpty } ?? false
            switch error {
            case ChatError.cutOff where hasText, ChatError.stalled where hasText, ChatError.toolRoundLimit:
                finish(replyID, as: .cutOff, userID: userID, recorder: recorder)
            default:
                finish(replyID, as: .failed, userID: userID, recorder: recorder)
            }
            let explained = await connection.explain(error)
            guard generation == self.generation else { return }
            report(explained)
        }
    }

    /// The messages a request carries: the chat's system prompt, then as many recent turns
    /// as fit the budget — loading earlier ones from the store when the loaded page is short.
    private func requestContext(through userIndex: Int) -> [ChatMessage] {
        var messages = conversation.context(through: userIndex)
        if hasEarlierMessages, let store = settledStore, let chat, let first = conversation.messages.first,
           let firstSeq = seqs[first.id] {
            let used = messages.reduce(0) { $0 + ContextWindow.estimatedTokens($1) }
            if used < contextBudget, let earlier = try? store.messages(in: chat.id, before: firstSeq, limit: 400) {
                messages = Conversation(messages: earlier.map(\.message)).context() + messages
            }
        }
        return ContextWindow.select(messages, systemPrompt: chat?.systemPrompt ?? defaultSystemPrompt, budget: contextBudget)
    }

    /// Applies a batch of turn events (on the main actor) with one change notification.
    private func receive(_ events: [ChatTurn.Event], reply replyID: UUID, user userID: UUID, recorder: ReplyRecorder?) {
        guard let index = conversation.index(of: replyID) else { return }
        if conversation[index].state == .sending { markDelivered(userID, reply: index) }
        for event in events {
            if let problem = conversation.update(index, { ReplyAssembler.apply(event, to: &$0) }) { report(problem) }
        }
        if let recorder, let seq = seqs[replyID] { recorder.update(conversation[index], seq: seq) }
        notify(.messageChanged(index))
    }

    private func markDelivered(_ userID: UUID, reply index: Int) {
        if let userIndex = conversation.index(of: userID), conversation[userIndex].state == .sending {
            conversation[userIndex].state = .done
            persist(userIndex)
            notify(.messageChanged(userIndex))
        }
        conversation[index].state = .streaming
        conversation[index].time = Date()
    }

    /// Settles both messages once the exchange is over. A reply that never got any text (nor
    /// called a tool) is removed; its user message, never delivered, is marked failed and
    /// given back to the entry so nothing the user typed is lost.
    private func finish(_ replyID: UUID, as state: MessageState, userID: UUID, recorder: ReplyRecorder?) {
        var delivered = false
        if let index = conversation.index(of: replyID) {
            delivered = conversation[index].state != .sending
            if conversation[index].text.isEmpty && conversation[index].toolCalls.isEmpty {
                remove(at: index)
            } else {
                conversation[index].state = state
                conversation[index].usage = Self.timed(conversation[index])
                if let recorder, let seq = seqs[replyID] { recorder.finish(conversation[index], seq: seq) }
                notify(.messageChanged(index))
                if state == .done || state == .cutOff { notify(.replyFinished(index)) }
            }
        }
        guard let userIndex = conversation.index(of: userID) else { return }
        if delivered || state == .stopped {
            if conversation[userIndex].state == .sending {
                conversation[userIndex].state = .done
                persist(userIndex, after: recorder)
                notify(.messageChanged(userIndex))
            }
        } else {
            conversation[userIndex].state = .failed
            persist(userIndex, after: recorder)
            notify(.messageChanged(userIndex))
            if draft.isEmpty { draft = conversation[userIndex].text }
        }
        touchChat(after: recorder)
    }

    /// The reply's token counts, timed by the clock here (from its first token to now)
    /// when the server counted tokens but not time and no tool ran in between.
    private static func timed(_ reply: ChatMessage) -> TokenUsage? {
        guard var usage = reply.usage, usage.generationSeconds == nil, usage.completionTokens != nil,
              reply.toolCalls.isEmpty else { return reply.usage }
        usage.generationSeconds = Date().timeIntervalSince(reply.time)
        return usage
    }

    /// Leaves a reply that is still streaming (another chat was opened): it is stopped and
    /// saved as it stands; its task's later results are ignored.
    private func abandonReply() {
        guard isSending else { return }
        currentTask?.cancel()
        if consent.isAsking { consent.answer(.deny) }
        if let inFlight, let index = conversation.index(of: inFlight) {
            var reply = conversation[index]
            if let seq = seqs[reply.id] {
                if reply.text.isEmpty && reply.toolCalls.isEmpty {
                    try? settledStore?.deleteMessage(reply.id)
                } else {
                    reply.state = .stopped
                    recorder?.finish(reply, seq: seq)
                }
            }
        }
        generation += 1
        currentTask = nil
        inFlight = nil
        isSending = false
    }

    // MARK: Keeping the store in step

    /// The store, once the last reply's saves have landed: what else reads or changes the
    /// chat goes after them. Waits only when the user acts in the moment a long reply is
    /// being saved.
    private var settledStore: ChatStore? {
        recorder?.flush()
        return store
    }

    private func ensureChat(firstPrompt: String) {
        guard chat == nil, let store = settledStore else { return }
        let title = ChatTitle.make(from: firstPrompt)
        let summary = ChatSummary(title: title, model: connection.modelName, systemPrompt: defaultSystemPrompt)
        do {
            try store.createChat(summary)
            chat = summary
            nextSeq = 0
            onChatSaved?(summary)
        } catch {
            report(error)
        }
    }

    /// Marks the chat as just used; behind `recorder`'s saves when given, without waiting.
    private func touchChat(after recorder: ReplyRecorder? = nil) {
        guard var summary = chat else { return }
        summary.updated = Date()
        summary.model = connection.modelName
        chat = summary
        let (id, date, model) = (summary.id, summary.updated, summary.model)
        write(after: recorder) { try $0.touchChat(id, at: date, model: model) }
        onChatSaved?(summary)
    }

    /// Saves message `index`; behind `recorder`'s saves when given, without waiting.
    private func persist(_ index: Int, after recorder: ReplyRecorder? = nil) {
        guard let chat, let seq = seqs[conversation[index].id] else { return }
        let (message, chatID) = (conversation[index], chat.id)
        write(after: recorder) { try $0.save(message, in: chatID, seq: seq) }
    }

    /// Runs `body` on the store now, or after `recorder`'s saves on its queue; a failure is
    /// reported in the window either way.
    private func write(after recorder: ReplyRecorder?, _ body: @escaping @Sendable (ChatStore) throws -> Void) {
        guard let recorder else {
            guard let store = settledStore else { return }
            do { try body(store) } catch { report(error) }
            return
        }
        recorder.then { store in
            do {
                try body(store)
            } catch {
                let message = ChatError.describe(error)
                Task { @MainActor [weak self] in self?.report(message) }
            }
        }
    }

    private func append(_ message: ChatMessage) {
        conversation.append(message)
        if chat != nil {
            seqs[message.id] = nextSeq
            nextSeq += 1
            persist(conversation.count - 1)
        }
        notify(.messageInserted(conversation.count - 1))
    }

    private func remove(at index: Int) {
        let message = conversation[index]
        conversation.remove(at: index)
        if seqs.removeValue(forKey: message.id) != nil { try? settledStore?.deleteMessage(message.id) }
        notify(.messageRemoved(index))
    }

    /// Removes the messages from `index` on, here and in the store.
    private func truncate(from index: Int) {
        guard index < conversation.count else { return }
        if let store = settledStore, let chat, let seq = seqs[conversation[index].id] {
            try? store.deleteMessages(in: chat.id, from: seq)
            nextSeq = seq
        }
        while conversation.count > index {
            let last = conversation.count - 1
            seqs.removeValue(forKey: conversation[last].id)
            conversation.remove(at: last)
            notify(.messageRemoved(last))
        }
    }

    // MARK: Errors and notifications

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

    private func notify(_ change: Change) {
        for observer in observers { observer(change) }
    }
}
