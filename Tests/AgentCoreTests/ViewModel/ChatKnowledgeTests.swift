import AgentCore
import Foundation
import TestSupport
import Testing

/// A chat asking about a folder: indexed in the background with progress, its passages in
/// the request and its sources on the reply, all kept with the chat.
@MainActor
@Suite("Knowledge folders in a chat")
struct ChatKnowledgeTests {
    let server = TestServer.shared

    @Test("Indexing reports progress; the question carries the fact's passage, the reply names its file; the chat keeps both")
    func askAboutAFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-chat-knowledge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let factFile = try KnowledgeFolder.make(folder, count: 120, size: 20_000)
        let database = temporaryDatabase()
        let index = FileManager.default.temporaryDirectory.appending(path: "agent-index-\(UUID().uuidString)/knowledge.sqlite")
        let marker = uniqueMarker()
        let model = ChatViewModel(connection: ChatConnection(endpoint: ChatEndpoint(serverURL: server.url("echo/\(marker)"), model: "m")),
                                  store: try ChatStore(file: database), knowledgeIndex: index)
        var progress: [Int] = []
        model.observe { change in
            if change == .knowledge, let indexing = model.knowledge.indexing { progress.append(indexing.done) }
        }
        model.knowledge.add(folder)
        await model.knowledge.waitUntilIndexed()
        #expect(model.knowledge.indexing == nil && progress.contains(0) && progress.last == 120, "\(progress)")

        model.draft = "What did the lighthouse keeper name his tortoise?"
        model.send()
        await model.waitUntilIdle()
        let body = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
        let sent = try #require((body["messages"] as? [[String: Any]])?.last?["content"] as? String)
        #expect(sent.contains("named his tortoise Pemberton") && sent.contains("[1] \(factFile.path)"))
        #expect(model.conversation[0].text == "What did the lighthouse keeper name his tortoise?", "the chat keeps the question as written")
        #expect(model.conversation[1].sources == [KnowledgeSource(path: factFile.path)])

        model.draft = "xyzzy plugh"
        model.send()
        await model.waitUntilIdle()
        #expect(model.conversation[3].sources.isEmpty)
        let plain = try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
        #expect((plain["messages"] as? [[String: Any]])?.last?["content"] as? String == "xyzzy plugh", "nothing matched, nothing added")

        // Reopened: the chat's folder and the reply's sources are still there.
        let chatID = try #require(model.chat?.id)
        model.finishSaving()
        let reopened = ChatViewModel(connection: model.connection, store: try ChatStore(file: database), knowledgeIndex: index)
        try reopened.open(chatID)
        #expect(reopened.knowledge.folders.map(\.path) == [folder.standardizedFileURL.path])
        #expect(reopened.conversation[1].sources == [KnowledgeSource(path: factFile.path)])
        await reopened.knowledge.waitUntilIndexed()
        reopened.knowledge.remove(folder.standardizedFileURL)
        #expect(try ChatStore(file: database).chat(chatID)?.knowledgeFolders == [])
    }
}
