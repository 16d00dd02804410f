import FoundationEssentials

/// The state the chat window shows and the user's intents on it, free of any toolkit: the
/// GTK window binds to it, tests run it headless. It composes the parts that do the work —
/// `ChatPager` (which chat, which pages), `ChatWriter` (the store kept in step),
/// `ReplyLifecycle` (a reply from request to settled messages), `ChatStatus` (connection
/// state, errors, consent) — and runs the reply in flight.
@MainActor
public final class ChatViewModel {
    public internal(set) var conversation = Conversation()
    public private(set) var isSending = false
    /// The connection this chat's replies go through: the default, or the chat's chosen model.
    public internal(set) var connection: ChatConnection
    /// The connection the settings describe (the server profile's model, or the local model);
    /// a chat with no model of its own uses it.
    public internal(set) var defaultConnection: ChatConnection
    /// The models the header's menu offers.
    public let models = ChatModelList()
    /// The settings of a new chat before its first message saves it.
    var unsavedSettings = ChatSettings()
    /// The preset the new chat was started from, by name.
    var unsavedPreset: String?
    /// The model the server said it does not have, when asked for a reply.
    var missingModel: ModelChoice?
    public let status: ChatStatus
    /// Where chats are kept; nil keeps this conversation in memory only.
    public let store: ChatStore?
    /// Which saved chat is open and which of its pages are loaded; nil without a store.
    public let pager: ChatPager?
    let writer: ChatWriter?
    /// The user message being edited: sending adds a new version of it, answered anew.
    public internal(set) var editingMessageID: UUID?
    /// The message a search result opened the chat at, for the transcript to show and mark.
    public internal(set) var focusedMessageID: UUID?
    /// The context budget in estimated tokens (system prompt and newest turn always go), for
    /// servers; the local model's comes from its server (`requestBudget`).
    public var contextBudget = 4096
    /// The system prompt new chats start with (what a chat's own prompt is measured against).
    public var defaultSystemPrompt = "" {
        didSet {
            guard defaultSystemPrompt != oldValue else { return }
            if unsavedSettings.systemPrompt == oldValue { unsavedSettings.systemPrompt = defaultSystemPrompt }
            notify(.settings)
        }
    }
    /// Told when the current chat was created or changed, so the chat list can follow.
    public var onChatSaved: ((ChatSummary) -> Void)?

    /// The text in the entry. Kept here so a failed send can give it back.
    public var draft = "" {
        didSet { if draft != oldValue { notify(.composer) } }
    }

    /// The placeholder the entry shows.
    public let instruction = tr("Type a message…")
    /// Files attached to the message being written.
    public let files = ComposerFiles()
    /// The folders the chat asks about.
    public let knowledge: ChatKnowledge
    /// The most of the context budget, in percent, that passages from the folders take.
    public var knowledgeShare = 40

    private let harnessAppIDPrefix: String
    private let sessionID = UUID()
    private var observers: [(Change) -> Void] = []
    /// The reply streaming now.
    private var flight: Flight?
    /// Changes whenever the reply in flight is given up (another chat opened), so its task's
    /// late results are dropped.
    private(set) var generation = 0
    /// A connection chosen while a reply streamed: it takes over once the reply ends.
    var pendingConnection: ChatConnection?
    /// Counts the connection's preparations: a start whose count is no longer the latest
    /// (the model let go of, another connection, another preparation) leaves the status alone.
    var preparation = 0
    /// The window let the local model go (`releaseLocalModel`): it is not started again
    /// until the next window prepares it.
    var localModelReleased = false
    /// The version deleted last, until it is restored (Undo, in its own chat only) or a reply
    /// is asked for.
    var deletedVersion: (message: UUID, chat: UUID)?
    /// What the composer held when an edit began, given back when it is cancelled.
    var composerBeforeEdit: (draft: String, files: [AttachedFile])?
    /// How many messages of a long chat stay loaded while the user pages through it: a page
    /// loaded at one end lets go of as many at the other, so the messages held, and the rows
    /// a list view builds for them, stay bounded however far the user scrolls. A view that
    /// knows how tall its rows are asks for fewer (`TranscriptView`); never fewer than a page
    /// (`ChatPager.pageSize`) nor more than `maximumLoaded`.
    public var loadedLimit = ChatViewModel.maximumLoaded {
        didSet { loadedLimit = min(max(loadedLimit, ChatPager.pageSize), Self.maximumLoaded) }
    }

    /// The reply streaming now, if any.
    var replyInFlightID: UUID? { flight?.replyID }

    /// The reply streaming now while one of its tools waits for the user's answer to a
    /// consent question; nil otherwise.
    public var replyAwaitingAnswer: UUID? {
        guard let question = status.consent.current, !question.isLaunch else { return nil }
        return flight?.replyID
    }

    private struct Flight {
        let replyID: UUID
        let userID: UUID
        let lifecycle: ReplyLifecycle
        /// The reply this one is a new version of (a regeneration).
        let earlierVersion: UUID?
        var task: Task<Void, Never>?
    }

    public init(connection: ChatConnection, consent: ConsentBroker = ConsentBroker(), store: ChatStore? = nil,
                harnessAppIDPrefix: String = AppIdentity.applicationID, knowledgeIndex: URL = KnowledgeIndex.defaultFile) {
        self.connection = connection
        defaultConnection = connection
        knowledge = ChatKnowledge(indexFile: knowledgeIndex)
        self.store = store
        self.harnessAppIDPrefix = harnessAppIDPrefix
        let status = ChatStatus(consent: consent)
        self.status = status
        let writer = store.map { ChatWriter(store: $0) { [weak status] message in status?.report(message, heading: ChatStatus.storageHeading) } }
        self.writer = writer
        pager = writer.map(ChatPager.init)
        status.onChange = { [weak self] change in self?.notify(change) }
        files.onChange = { [weak self] in self?.notify(.files) }
        files.onRefusal = { [weak status] reason in status?.report(reason, heading: tr("Could Not Attach File")) }
        knowledge.onChange = { [weak self] in self?.notify(.knowledge) }
        knowledge.onProblem = { [weak status] problem in status?.report(problem, heading: tr("Knowledge Folder Error")) }
        knowledge.onFoldersChanged = { [weak self] folders in self?.keepFolders(folders) }
        models.onChange = { [weak self] in self?.notify(.status) }
    }

    /// The chat on screen; nil until a new chat's first message.
    public var chat: ChatSummary? { pager?.chat }

    /// Identifies this chat to a server that keeps the context itself (the llmtools
    /// harness): stable per installation (the prefix) and per chat.
    public var harnessAppID: String {
        "\(harnessAppIDPrefix).\((chat?.id ?? sessionID).uuidString.lowercased())"
    }

    /// Send is possible with some text or a file, every file read, and nothing in flight.
    public var canSend: Bool {
        !isSending && files.reading == 0 && (!draft.trimmed.isEmpty || !files.items.isEmpty)
    }

    /// Whether the chat's last reply can be asked for again (it is on screen).
    public var canRegenerate: Bool {
        pager?.hasLater != true && conversation.messages.last.map { canRegenerate($0.id) } ?? false
    }

    /// Whether reply `id` can be asked for again: a new version of it, the question before it
    /// loaded, nothing in flight.
    public func canRegenerate(_ id: UUID) -> Bool {
        guard !isSending, let index = conversation.index(of: id), index > 0 else { return false }
        return conversation[index].role == .assistant && conversation[index - 1].role == .user
    }

    public var modelName: String { connection.modelName }

    /// The connection the next reply goes through: one chosen while a reply streams, else the current one.
    public var upcomingConnection: ChatConnection { pendingConnection ?? connection }

    /// Registers a handler for every change; the view's single way to learn of them.
    public func observe(_ handler: @escaping (Change) -> Void) {
        observers.append(handler)
    }

    // MARK: Sending

    /// Sends `text` as a message of its own, from outside the window (`agent --new-chat
    /// TEXT`), leaving what the composer holds — a draft, attached files — as it was.
    /// False when nothing was sent (a reply is still being written, or the text was refused).
    public func send(_ text: String) -> Bool {
        guard !isSending, editingMessageID == nil else { return false }
        let keptDraft = draft
        let keptFiles = files.items
        draft = text
        files.replace(with: [])
        send()
        let sent = isSending
        draft = keptDraft
        files.replace(with: keptFiles)
        return sent
    }

    /// Sends the draft and its files (a new version of the message being edited, or of an
    /// undelivered message at the chat's end, which is deleted when sent again unchanged) and
    /// streams the reply. Files that do not fit the context budget, or images for a model
    /// known to read text only, are refused first, the draft and files left as they were.
    public func send() {
        guard canSend else { return }
        let text = draft.trimmed
        let userMessage = ChatMessage(role: .user, text: text, state: .sending, attachments: files.items)
        do throws(AttachedFile.Refusal) {
            try AttachmentMessage.check(userMessage, budget: requestBudget)
            try connection.checkCanRead(userMessage.attachments)
        } catch {
            // TRANSLATORS: a message was not sent; %s is why.
            status.report(tr("Not sent: %s", error.description), heading: tr("Message Not Sent"))
            return
        }
        var message = userMessage
        var sibling: UUID?
        // The search hit's mark goes with the message sent (before the newest page, if it loads, is shown).
        focusedMessageID = nil
        // The message edited, or an undelivered one at the end: the new message is a version of
        // it, or, for an undelivered one sent again unchanged, takes its place.
        var replaced = editingMessageID.flatMap { conversation.index(of: $0) }
        if replaced == nil {
            if pager?.hasLater == true { showNewestPage() }
            if editingMessageID == nil, let last = conversation.messages.indices.last, conversation[last].isUndelivered { replaced = last }
        }
        editingMessageID = nil
        composerBeforeEdit = nil
        var retried: UUID?
        if let index = replaced {
            let earlier = conversation[index]
            message.parentID = earlier.parentID
            sibling = earlier.id
            if earlier.isRetried(by: message) { retried = earlier.id }
            removeShown(from: index)
        }
        ensureChat(firstMessage: message)
        draft = ""
        files.replace(with: [])
        append(message, versionOf: sibling)
        if let retried { forgetAttempt(retried, retriedAs: message.id) }
        startReply(to: message.id)
    }

    /// Asks again for reply `id` (the chat's last one when nil, if loaded): a new version of it
    /// is answered to the same message; the old one and what followed it stay, a click away.
    public func regenerate(_ id: UUID? = nil) {
        guard let replyID = id ?? (canRegenerate ? conversation.messages.last?.id : nil), canRegenerate(replyID),
              let replyIndex = conversation.index(of: replyID) else { return }
        removeShown(from: replyIndex)
        startReply(to: conversation[replyIndex - 1].id, versionOf: replyID)
    }

    /// Stops the reply in flight; what arrived so far stays, marked as stopped.
    public func stop() {
        flight?.task?.cancel()
        status.consent.denyReplyQuestions()
    }

    /// Waits until the reply in flight (if any) has ended and been saved.
    public func waitUntilIdle() async {
        await flight?.task?.value
        writer?.flush()
    }

    /// Waits until every save asked for has landed (quitting).
    public func finishSaving() {
        writer?.flush()
    }

    private func startReply(to userID: UUID, versionOf sibling: UUID? = nil) {
        var reply = ReplyLifecycle.placeholder(model: connection.modelName)
        reply.parentID = userID
        append(reply, versionOf: sibling)
        let recorder = chat.flatMap { chat in writer?.startRecording(in: chat.id) }
        let lifecycle = ReplyLifecycle(userSeq: pager?.place(of: userID), replySeq: pager?.place(of: reply.id), recorder: recorder,
                                       answered: sibling != nil)
        flight = Flight(replyID: reply.id, userID: userID, lifecycle: lifecycle, earlierVersion: sibling)
        isSending = true
        deletedVersion = nil
        notify(.composer)
        let (generation, connection) = (generation, connection)
        flight?.task = Task { await stream(generation: generation, connection: connection) }
    }

    private func stream(generation: Int, connection: ChatConnection) async {
        let relay = MainActorRelay<ChatTurn.Event> { [weak self] events in
            guard let self, generation == self.generation else { return }
            receive(events)
        }
        let ending: ReplyLifecycle.Ending
        do {
            let turn = try await connection.turn(appID: harnessAppID, settings: settings)
            guard generation == self.generation else { return }
            if connection.isLocal { status.setConnection(.ready) }
            guard let userID = flight?.userID, let userIndex = conversation.index(of: userID) else {
                settle(.stopped)
                return
            }
            let passages = await knowledgePassages(for: conversation[userIndex])
            guard generation == self.generation else { return }
            guard let questionIndex = conversation.index(of: userID) else {
                settle(.stopped)
                return
            }
            let context = requestContext(through: questionIndex, passages: passages)
            try await turn.run(context: context) { relay.push($0) }
            ending = Task.isCancelled ? .stopped : .completed
        } catch {
            ending = Task.isCancelled ? .stopped : .failed(error)
        }
        relay.flush()
        guard generation == self.generation else { return }
        // Read before the reply settles: once it has, paging may let go of the message.
        let sentImages = if case .failed = ending {
            flight.flatMap { conversation.index(of: $0.userID) }.map { conversation[$0].attachments.contains { $0.kind == .image } } == true
        } else {
            false
        }
        settle(ending)
        guard case .failed(let error) = ending else { return }
        let explained = await connection.explain(error)
        guard generation == self.generation else { return }
        if noticeMissingModel(explained, on: connection) { return }
        status.report(ChatError.describe(explained) + (sentImages ? "\n\n" + tr("This model may not accept images.") : ""))
    }

    /// Applies a batch of turn events (on the main actor) with one change notification.
    private func receive(_ events: [ChatTurn.Event]) {
        guard let flight, let replyIndex = conversation.index(of: flight.replyID),
              let userIndex = conversation.index(of: flight.userID) else { return }
        var user = conversation[userIndex]
        let userState = user.state
        let problems = conversation.update(replyIndex) { flight.lifecycle.receive(events, reply: &$0, user: &user) }
        if user.state != userState {
            conversation[userIndex] = user
            notify(.messageChanged(userIndex))
        }
        for problem in problems { status.report(problem) }
        notify(.messageChanged(replyIndex))
    }

    /// Settles the reply in flight and its user message, here and in the store.
    private func settle(_ ending: ReplyLifecycle.Ending) {
        defer { endFlight() }
        guard let flight, let replyIndex = conversation.index(of: flight.replyID),
              let userIndex = conversation.index(of: flight.userID) else { return }
        var user = conversation[userIndex]
        let settlement = conversation.update(replyIndex) { flight.lifecycle.settle(ending, reply: &$0, user: &user) }
        conversation[userIndex] = user
        notify(.messageChanged(userIndex))
        if settlement.replyRemoved {
            pager?.forget(flight.replyID, branchEndsAt: flight.userID)
            if let chat { writer?.setCurrent(chat.id, flight.userID) }
            conversation.remove(at: replyIndex)
            notify(.messagesRemoved(replyIndex..<(replyIndex + 1)))
            // A regeneration that came to nothing: the reply it was to replace is shown again.
            if let earlier = flight.earlierVersion { showVersion(earlier, after: flight.userID) }
        } else {
            notify(.messageChanged(replyIndex))
            let state = conversation[replyIndex].state
            if state == .done || state == .cutOff { notify(.replyFinished(replyIndex)) }
        }
        if settlement.userUndelivered, draft.isEmpty, files.items.isEmpty {
            draft = user.text
            files.replace(with: user.attachments)
        }
        touchChat()
    }

    private func endFlight() {
        flight = nil
        isSending = false
        notify(.composer)
        if let pendingConnection { switchConnection(to: pendingConnection) }
        // The window closed during the reply: the local model goes now that it has ended.
        if localModelReleased { stopLocalModel() }
    }

    /// Leaves a reply that is still streaming (another chat opened): it is settled as Stop
    /// settles it, here and in the store, and its task's later results are dropped.
    /// Stops the reply under way, if any, keeping what came; `notifying`: tells the view
    /// (`replyLeft`) so the user learns of it.
    func abandonReply(notifying: Bool = true) {
        guard let flight else { return }
        let title = chat?.title
        flight.task?.cancel()
        status.consent.denyReplyQuestions()
        settle(.stopped)
        generation += 1
        if notifying, let title { notify(.replyLeft(chatTitle: title)) }
    }

    func notify(_ change: Change) {
        for observer in observers { observer(change) }
    }
}
