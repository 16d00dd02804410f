import FoundationEssentials

/// What GNOME Shell's overview finds in the chats (its search provider asks): the chats and
/// messages holding every term, each named by an id that says where it is
/// ("CHAT_ID/MESSAGE_ID", or the chat id alone for a title), with the chat's title as the
/// result's name and the matching line as its description.
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

    /// The ids of what matches every term; empty when nothing does (or the store failed).
    public func results(for terms: [String]) -> [String] {
        let hits = (try? store.search(terms.joined(separator: " "), limit: limit)) ?? []
        return hits.map { hit in
            let id = Self.id(of: hit)
            found[id] = hit
            return id
        }
    }

    /// Name and description of each id found before (unknown ids are left out).
    public func metas(for ids: [String]) -> [Meta] {
        ids.compactMap { id in
            found[id].map { Meta(id: id, name: $0.chatTitle, description: $0.snippet) }
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
