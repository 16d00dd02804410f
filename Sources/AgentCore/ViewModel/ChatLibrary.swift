import FoundationEssentials

/// The chats the sidebar lists, newest first, and what the user does with them: open, start
/// a new one, rename, delete (with undo), search, export and import. The chat on screen is
/// the view model's; the library opens chats in it and follows what it saves.
@MainActor
public final class ChatLibrary {
    public enum Change: Equatable, Sendable {
        /// The list changed (order, titles, membership).
        case chats
        /// The chat on screen changed.
        case selection
        case searchResults
        /// A chat was deleted and can be restored, or the chance has passed.
        case undo
        /// A preset was added, changed or deleted.
        case presets
        /// A chat was started from a preset (the one Ctrl+N starts from may have changed).
        case presetUsed
    }

    public let store: ChatStore
    public let viewModel: ChatViewModel
    private let settings: SettingsStore?
    public private(set) var chats: [ChatSummary] = []
    public private(set) var searchResults: [SearchHit] = []
    public private(set) var searchQuery = ""
    /// The chat just deleted, until it is restored or forgotten.
    public private(set) var recentlyDeleted: ChatSummary?
    /// Every chat deleted in this run and not brought back (its Undo may have gone).
    private var deletedIDs: Set<UUID> = []
    private var observers: [(Change) -> Void] = []

    public init(store: ChatStore, viewModel: ChatViewModel, settings: SettingsStore? = nil) {
        self.store = store
        self.viewModel = viewModel
        self.settings = settings
        chats = (try? store.chats()) ?? []
        viewModel.onChatSaved = { [weak self] summary in self?.chatSaved(summary) }
    }

    public func observe(_ handler: @escaping (Change) -> Void) {
        observers.append(handler)
    }

    /// The chat listed with id `id` (its text form).
    public func chat(withID id: String) -> ChatSummary? {
        guard let uuid = UUID(uuidString: id) else { return nil }
        return chats.first { $0.id == uuid }
    }

    /// The position of the chat on screen in `chats`.
    public var selectedIndex: Int? {
        guard let id = viewModel.chat?.id else { return nil }
        return chats.firstIndex { $0.id == id }
    }

    /// Opens the chat used last (remembered in settings), or a new one.
    public func openInitialChat() {
        if let last = settings?.lastChat, chats.contains(where: { $0.id == last }) {
            open(last)
        } else {
            newChat()
        }
    }

    public func newChat() {
        viewModel.startNewChat()
        forgetLastChat()
        notify(.selection)
    }

    /// The next start opens a new chat.
    func forgetLastChat() {
        settings?.lastChat = nil
    }

    public func open(_ id: UUID, focusing message: UUID? = nil) {
        do {
            try viewModel.open(id, focusing: message)
            settings?.lastChat = id
        } catch {
            viewModel.startNewChat()
            viewModel.status.report(error)
        }
        notify(.selection)
    }

    /// Opens a search result at its message — in the chat on screen, without reopening it
    /// when the message is there already (a reply streaming in it goes on).
    public func open(_ hit: SearchHit) {
        if hit.chatID == viewModel.chat?.id, let message = hit.messageID, viewModel.focus(on: message) { return }
        open(hit.chatID, focusing: hit.messageID)
    }

    public func rename(_ id: UUID, to title: String) {
        let trimmed = title.trimmed
        guard !trimmed.isEmpty, let index = chats.firstIndex(where: { $0.id == id }), attempt({ try $0.renameChat(id, to: trimmed) })
        else { return }
        chats[index].title = trimmed
        viewModel.chatRenamed(chats[index])
        notify(.chats)
    }

    /// Deletes a chat; `undoDelete` brings it back until the next delete or restart.
    public func delete(_ id: UUID) {
        guard let index = chats.firstIndex(where: { $0.id == id }) else { return }
        let wasOpen = viewModel.chat?.id == id
        guard attempt({ try $0.deleteChat(id) }) else { return }
        // Its reply goes with it: no word that it stopped, about a chat the user deleted.
        if wasOpen { viewModel.abandonReply(notifying: false) }
        recentlyDeleted = chats.remove(at: index)
        deletedIDs.insert(id)
        notify(.chats)
        notify(.undo)
        if wasOpen {
            if chats.indices.contains(index) {
                open(chats[index].id)
            } else if let last = chats.last {
                open(last.id)
            } else {
                newChat()
            }
        }
    }

    public func undoDelete() {
        guard let chat = recentlyDeleted else { return }
        recentlyDeleted = nil
        notify(.undo)
        guard attempt({ try $0.restoreChat(chat.id) }) else { return }
        deletedIDs.remove(chat.id)
        chats.insert(chat, at: chats.firstIndex { $0.updated <= chat.updated } ?? chats.count)
        notify(.chats)
        open(chat.id)
    }

    /// The undo notice timed out.
    public func forgetDeleted() {
        guard recentlyDeleted != nil else { return }
        recentlyDeleted = nil
        notify(.undo)
    }

    /// Whether the query asks for anything: spaces alone search for nothing.
    public var isSearching: Bool { !searchQuery.trimmedSpaces.isEmpty }

    public func search(_ text: String) {
        searchQuery = text
        do {
            searchResults = isSearching ? try store.search(text) : []
        } catch {
            searchResults = []
            viewModel.status.report(tr("Could not search your chats: %s", ChatError.describe(error)), heading: tr("Could Not Search Chats"))
        }
        notify(.searchResults)
    }

    // MARK: Export and import

    /// Exports read the store once the replies' saves have landed; nil when there is no such chat.
    public func markdown(of id: UUID) throws -> String? {
        viewModel.finishSaving()
        return try store.archive(id).map(ChatArchive.markdown)
    }

    public func json(of id: UUID) throws -> String? {
        viewModel.finishSaving()
        return try store.archive(id).map { ChatArchive.json([$0]) }
    }

    public func jsonOfAll() throws -> String {
        viewModel.finishSaving()
        return ChatArchive.json(try store.archiveAll())
    }

    /// Imports chats exported as JSON; returns how many came in.
    @discardableResult
    public func importJSON(_ text: String) throws -> Int {
        let imported = try store.importChats(ChatArchive.parse(text))
        chats = try store.chats()
        notify(.chats)
        return imported.count
    }

    // MARK: Following the view model

    private func chatSaved(_ summary: ChatSummary) {
        // A reply left behind as its chat was deleted settles after the delete: the chat stays gone.
        guard !deletedIDs.contains(summary.id) else { return }
        chats.removeAll { $0.id == summary.id }
        let position = chats.firstIndex { $0.updated <= summary.updated } ?? chats.count
        chats.insert(summary, at: position)
        settings?.lastChat = summary.id
        notify(.chats)
        notify(.selection)
    }

    /// Runs a write on the store; a failure is shown to the user and leaves the list as the
    /// store has it.
    private func attempt(_ body: (ChatStore) throws -> Void) -> Bool {
        do {
            try body(store)
            return true
        } catch {
            viewModel.status.report(tr("Could not change your chats: %s", ChatError.describe(error)), heading: tr("Could Not Change Chats"))
            return false
        }
    }

    func notify(_ change: Change) {
        for observer in observers { observer(change) }
    }
}
