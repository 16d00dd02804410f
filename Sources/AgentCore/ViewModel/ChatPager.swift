import FoundationEssentials

/// Which saved chat is open, which branch of it is shown and which of that branch's messages
/// are loaded: a chat opens on the newest page of the branch it showed last, or on the page
/// around a search hit (whose branch it then shows), and the pages before and after come on
/// demand. It knows each loaded message's place (`seq`) in the store and its versions (the
/// messages with the same parent). It reads the store, and writes only which branch is shown.
@MainActor
public final class ChatPager {
    /// How many messages a page holds.
    public static let pageSize = 30

    private let writer: ChatWriter
    /// The chat on screen; nil until a new chat's first message.
    public private(set) var chat: ChatSummary?
    /// Whether the branch has messages before the first loaded one.
    public private(set) var hasEarlier = false
    /// Whether the branch has messages after the last loaded one (a chat opened at a search
    /// hit, another version chosen high up).
    public private(set) var hasLater = false
    /// The last message of the branch shown.
    private(set) var leafID: UUID?
    private var seqs: [UUID: Int] = [:]
    private var nextSeq = 0
    /// The versions of loaded messages that have more than one, oldest first.
    private var versions: [UUID: [UUID]] = [:]

    init(writer: ChatWriter) {
        self.writer = writer
    }

    private var store: ChatStore { writer.settledStore }

    /// Whether chat `id` is there to open (not deleted).
    func canOpen(_ id: UUID) throws -> Bool {
        try store.chat(id) != nil
    }

    /// Opens `id` on the newest page of the branch it shows, or on the page around `message`
    /// on that message's branch (shown from then on); nil when there is no such chat.
    func open(_ id: UUID, around message: UUID? = nil) throws -> [ChatMessage]? {
        guard let summary = try store.chat(id) else { return nil }
        var leaf = try store.currentLeaf(of: id)
        var loaded: [StoredMessage]
        // A hit in this chat that is still there: not one in a version deleted since the
        // search, which would otherwise become the chat's branch and be purged under it.
        if let message, let current = leaf, try store.message(message)?.chat == id {
            if try !store.isOnBranch(message, endingAt: current) {
                let newLeaf = try store.leaf(from: message, in: id)
                try store.chooseBranch(endingAt: newLeaf)
                try store.setCurrent(id, newLeaf)
                leaf = newLeaf
            }
            loaded = try store.branch(endingAt: message, limit: Self.pageSize / 3 + 1)
            loaded += try store.branch(after: message, in: id, limit: Self.pageSize - loaded.count)
        } else {
            loaded = try leaf.map { try store.branch(endingAt: $0, limit: Self.pageSize) } ?? []
        }
        nextSeq = try store.nextSeq(in: id)
        chat = summary
        leafID = leaf
        seqs = [:]
        versions = [:]
        try take(loaded, in: id)
        hasEarlier = hasParentToLoad(loaded.first)
        hasLater = loaded.last?.message.id != leaf
        return loaded.map(\.message)
    }

    /// The newest page of the open chat's branch (before a message is added to a chat opened elsewhere).
    func newestPage() throws -> [ChatMessage] {
        guard let chat else { return [] }
        return try open(chat.id) ?? []
    }

    /// No chat: a new one, saved with its first message.
    func startNew() {
        chat = nil
        seqs = [:]
        versions = [:]
        nextSeq = 0
        leafID = nil
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

    /// The page before `first` (the first loaded message), at most `limit` messages.
    func earlierPage(before first: UUID, limit: Int = pageSize) throws -> [ChatMessage] {
        guard hasEarlier, let chat else { return [] }
        // A loop in a damaged file would bring back messages already loaded: the page ends there.
        let page = Array(try store.branch(endingAt: first, limit: limit, including: false).reversed()
            .prefix { seqs[$0.message.id] == nil }.reversed())
        try take(page, in: chat.id)
        hasEarlier = hasParentToLoad(page.first)
        return page.map(\.message)
    }

    /// Whether the branch goes on above `first`: it has a parent, not loaded already (as in a
    /// damaged file whose messages link in a loop).
    private func hasParentToLoad(_ first: StoredMessage?) -> Bool {
        guard let parent = first?.message.parentID else { return false }
        return seqs[parent] == nil
    }

    /// The page after `last` (the last loaded message), at most `limit` messages.
    func laterPage(after last: UUID, limit: Int = pageSize) throws -> [ChatMessage] {
        guard hasLater, let chat else { return [] }
        let page = try store.branch(after: last, in: chat.id, limit: limit)
        try take(page, in: chat.id)
        hasLater = (page.last?.message.id ?? leafID) != leafID
        return page.map(\.message)
    }

    /// The loaded messages `ids`, the last ones (`later`) or the first, are let go of: the
    /// branch has messages beyond those loaded now at that end.
    func unload(_ ids: some Sequence<UUID>, later: Bool) {
        for id in ids { seqs[id] = nil }
        if later { hasLater = true } else { hasEarlier = true }
    }

    /// Stored messages of the branch before `first`, at most `limit` (a request's context
    /// reaches further back than the loaded page).
    func stored(before first: UUID, limit: Int) throws -> [ChatMessage] {
        guard hasEarlier else { return [] }
        return try store.branch(endingAt: first, limit: limit, including: false).map(\.message)
    }

    /// Shows `version` (a sibling of a loaded message) and the branch below it, as chosen
    /// last; returns its first page, `version` first.
    func show(version: UUID, under parent: UUID?) throws -> [ChatMessage] {
        guard let chat else { return [] }
        if let parent { try store.choose(version: version, under: parent) }
        let leaf = try store.leaf(from: version, in: chat.id)
        try store.setCurrent(chat.id, leaf)
        var page = try store.branch(endingAt: version, limit: 1)
        page += try store.branch(after: version, in: chat.id, limit: Self.pageSize - 1)
        try take(page, in: chat.id)
        leafID = leaf
        hasLater = page.last?.message.id != leaf
        return page.map(\.message)
    }

    /// The versions of `id` (itself included, oldest first) when it has more than one.
    func versions(of id: UUID) -> [UUID]? { versions[id] }

    /// Where message `id` is stored; nil when it is not (yet).
    func place(of id: UUID) -> Int? { seqs[id] }

    /// Gives a new message at the end of the shown branch the next place in the open chat;
    /// nil without a stored chat. `sibling`: the message it is a new version of.
    @discardableResult
    func assignPlace(to id: UUID, versionOf sibling: UUID? = nil) -> Int? {
        if let sibling {
            let group = (versions[sibling] ?? [sibling]) + [id]
            for member in group { versions[member] = group }
        }
        leafID = id
        hasLater = false
        guard chat != nil else { return nil }
        seqs[id] = nextSeq
        nextSeq += 1
        return nextSeq - 1
    }

    /// `id` is gone (a reply that came to nothing, a deleted version); `last` ends the branch now.
    func forget(_ id: UUID, branchEndsAt last: UUID?) {
        seqs[id] = nil
        if let group = versions[id] {
            let rest = group.filter { $0 != id }
            for member in group { versions[member] = rest.count > 1 ? rest : nil }
        }
        if leafID == id { leafID = last }
    }

    /// Knows the places and versions of `page`'s messages.
    private func take(_ page: [StoredMessage], in chat: UUID) throws {
        for stored in page { seqs[stored.message.id] = stored.seq }
        versions.merge(try store.versions(of: page.map(\.message), in: chat)) { _, new in new }
    }
}
