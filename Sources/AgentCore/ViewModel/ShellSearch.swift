import FoundationEssentials

/// What GNOME Shell's overview finds in the chats (its search provider asks): the chats and
/// messages holding every term, each named by an id that says where it is
/// ("CHAT_ID/MESSAGE_ID", or the chat id alone for a title), with the chat's title as the
/// result's name and the matching line as its description (none for a title, which the
/// name already shows).
@MainActor
public final class ShellSearch {
    public struct Meta: Equatable, Sendable {
        public let id: String
        public let name: String
        public let description: String
    }

    private let store: ChatStore
    /// The hits of the searches so far, by id (the Shell asks for metas after results).
    private var found: [String: SearchHit] = [:]
    /// The most the overview is given; it shows a few.
    private let limit = 20

    public init(store: ChatStore) {
        self.store = store
    }

    /// The ids of what matches every term, the best first; empty when nothing does (or the
    /// store failed). `fresh`: a new search (the Shell's initial one), not a narrowing.
    public func results(for terms: [String], fresh: Bool = true) -> [String] {
        if fresh { found = [:] }
        let hits = (try? store.search(terms.joined(separator: " "), limit: limit)) ?? []
        return hits.prefix(limit).map { hit in
            let id = Self.id(of: hit)
            found[id] = hit
            return id
        }
    }

    /// Name and description of each id: from the search that found it, or from the store
    /// (an Agent started again between the Shell's calls); ids of nothing are left out.
    public func metas(for ids: [String]) -> [Meta] {
        ids.compactMap { id in
            if let hit = found[id] { return Meta(id: id, name: hit.chatTitle, description: hit.messageID == nil ? "" : hit.snippet) }
            guard let location = Self.location(of: id), let chat = try? store.chat(location.chat) else { return nil }
            let text = location.message.flatMap { try? store.message($0)?.stored.message.text } ?? ""
            return Meta(id: id, name: chat.title, description: text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
        }
    }

    /// The chat, and the message in it, an id points at; nil for a malformed id.
    public nonisolated static func location(of id: String) -> (chat: UUID, message: UUID?)? {
        let parts = id.split(separator: "/").map(String.init)
        guard let first = parts.first, let chat = UUID(uuidString: first), parts.count <= 2 else { return nil }
        guard parts.count == 2 else { return (chat, nil) }
        guard let message = UUID(uuidString: parts[1]) else { return nil }
        return (chat, message)
    }

    private static func id(of hit: SearchHit) -> String {
        hit.messageID.map { "\(hit.chatID.uuidString)/\($0.uuidString)" } ?? hit.chatID.uuidString
    }
}
