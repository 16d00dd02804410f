import FoundationEssentials

/// Which saved chat is open and which of its messages are loaded: a chat opens on its
/// newest page, or on the page around a search hit, and the pages before and after come on
/// demand. It knows each loaded message's place (`seq`) in the store; it reads the store and
/// never writes it.
@MainActor
public final class ChatPager {
    /// How many messages a page holds.
    public static let pageSize = 30

    private let writer: ChatWriter
    /// The chat on screen; nil until a new chat's first message.
    public private(set) var chat: ChatSummary?
    /// Whether the store holds messages before the first loaded one.
    public private(set) var hasEarlier = false
    /// Whether the store holds messages after the last loaded one (a chat opened at a search hit).
    public private(set) var hasLater = false
    private var seqs: [UUID: Int] = [:]
    private var nextSeq = 0

    init(writer: ChatWriter) {
        self.writer = writer
    }

    private var store: ChatStore { writer.settledStore }

    /// Opens `id` on its newest page, or on the page around `message`; nil when there is no such chat.
    func open(_ id: UUID, around message: UUID? = nil) throws -> [ChatMessage]? {
        guard let summary = try store.chat(id) else { return nil }
        var loaded: [StoredMessage]
        if let message, let seq = try store.seq(of: message) {
            let before = try store.messages(in: id, before: seq, limit: Self.pageSize / 3)
            loaded = before + (try store.messages(in: id, from: seq, limit: Self.pageSize - before.count))
        } else {
            loaded = try store.messages(in: id, limit: Self.pageSize)
        }
        nextSeq = try store.nextSeq(in: id)
        chat = summary
        seqs = Dictionary(loaded.map { ($0.message.id, $0.seq) }, uniquingKeysWith: { first, _ in first })
        hasEarlier = (loaded.first?.seq ?? 0) > 0
        hasLater = (loaded.last.map { $0.seq + 1 } ?? 0) < nextSeq
        return loaded.map(\.message)
    }

    /// The newest page of the open chat (before a message is added to a chat opened elsewhere).
    func newestPage() throws -> [ChatMessage] {
        guard let chat else { return [] }
        return try open(chat.id) ?? []
    }

    /// No chat: a new one, saved with its first message.
    func startNew() {
        chat = nil
        seqs = [:]
        nextSeq = 0
        hasEarlier = false
        hasLater = false
    }

    /// The chat was just created in the store.
    func created(_ summary: ChatSummary) {
        chat = summary
        nextSeq = 0
    }

    func update(_ summary: ChatSummary) {
        if chat?.id == summary.id { chat = summary }
    }

    /// The page before `first` (the first loaded message).
    func earlierPage(before first: UUID) throws -> [ChatMessage] {
        guard hasEarlier, let chat, let firstSeq = seqs[first] else { return [] }
        let page = try store.messages(in: chat.id, before: firstSeq, limit: Self.pageSize)
        for stored in page { seqs[stored.message.id] = stored.seq }
        hasEarlier = (page.first?.seq ?? 0) > 0
        return page.map(\.message)
    }

    /// The page after `last` (the last loaded message).
    func laterPage(after last: UUID) throws -> [ChatMessage] {
        guard hasLater, let chat, let lastSeq = seqs[last] else { return [] }
        let page = try store.messages(in: chat.id, from: lastSeq + 1, limit: Self.pageSize)
        for stored in page { seqs[stored.message.id] = stored.seq }
        hasLater = (page.last.map { $0.seq + 1 } ?? nextSeq) < nextSeq
        return page.map(\.message)
    }

    /// Stored messages before `first`, at most `limit` (a request's context reaches further
    /// back than the loaded page).
    func stored(before first: UUID, limit: Int) throws -> [ChatMessage] {
        guard hasEarlier, let chat, let firstSeq = seqs[first] else { return [] }
        return try store.messages(in: chat.id, before: firstSeq, limit: limit).map(\.message)
    }

    /// Where message `id` is stored; nil when it is not (yet).
    func place(of id: UUID) -> Int? { seqs[id] }

    /// Gives a new message the next place in the open chat; nil without a stored chat.
    func assignPlace(to id: UUID) -> Int? {
        guard chat != nil else { return nil }
        seqs[id] = nextSeq
        nextSeq += 1
        return nextSeq - 1
    }

    func forget(_ id: UUID) {
        seqs[id] = nil
    }

    /// The messages from `seq` on were deleted: the next new one takes `seq`.
    func truncated(from seq: Int, removing ids: [UUID]) {
        for id in ids { seqs[id] = nil }
        nextSeq = seq
        hasLater = false
    }
}
