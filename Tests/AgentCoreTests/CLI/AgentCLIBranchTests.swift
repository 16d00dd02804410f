import AgentCore
import Foundation
import TestSupport
import Testing

/// `agent-cli --chat ID --regenerate` and `--edit MESSAGE_ID`: a new version beside the old
/// one, answered with its own branch alone, and shown from then on.
@Suite("agent-cli --regenerate and --edit")
struct AgentCLIBranchTests {
    let server = TestServer.shared

    /// A chat as `--export ID --format json` prints it.
    static func exported(_ id: String, home: [String: String]) async throws -> [String: Any] {
        let export = try await ProductRunner.run("agent-cli", ["--export", id, "--format", "json"], environment: home)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        return try #require((root["chats"] as? [[String: Any]])?.first)
    }

    static func messages(of chat: [String: Any]) -> [[String: Any]] {
        chat["messages"] as? [[String: Any]] ?? []
    }

    /// The messages a recorded request carried, as (role, text).
    static func carried(_ request: [String: Any]) -> [String] {
        let messages = (request["body"] as? [String: Any])?["messages"] as? [[String: Any]] ?? []
        return messages.map { "\($0["role"] as? String ?? ""): \($0["content"] as? String ?? "")" }
    }

    /// Starts a chat at `url` with `prompts`, one turn each; its id.
    static func chat(_ prompts: [String], url: String, home: [String: String]) async throws -> String {
        let first = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", "new", prompts[0]], environment: home)
        let id = try #require(AgentCLIChatTests.chatID(in: first.stderr), "\(first.stderr)")
        for prompt in prompts.dropFirst() {
            let turn = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, prompt], environment: home)
            #expect(turn.status == 0, "\(turn.stderr)")
        }
        return id
    }

    @Test("--regenerate answers the last question again; the old reply stays as a version beside the new one, shown")
    func regenerateKeepsTheOldReply() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let id = try await Self.chat(["Hello"], url: url, home: home)

        let again = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "--regenerate"], environment: home)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "Echo: Hello (1 messages)\n", "printed like any reply")

        let chat = try await Self.exported(id, home: home)
        let messages = Self.messages(of: chat)
        let user = try #require(messages.first { $0["role"] as? String == "user" })
        let replies = messages.filter { $0["role"] as? String == "assistant" }
        #expect(messages.count == 3)
        #expect(replies.count == 2)
        #expect(replies.allSatisfy { $0["parent"] as? String == user["id"] as? String }, "two versions of one reply")
        #expect(chat["current"] as? String == replies.last?["id"] as? String, "the new version is shown")

        let requests = try await server.requests(containing: marker)
        #expect(requests.map(Self.carried) == [["user: Hello"], ["user: Hello"]], "the same question, and nothing of the old reply")

        let next = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "Next"], environment: home)
        #expect(next.stdout == "Echo: Next (3 messages)\n")
        let after = Self.messages(of: try await Self.exported(id, home: home))
        #expect(after.first { $0["text"] as? String == "Next" }?["parent"] as? String == replies.last?["id"] as? String,
                "the next turn follows the new version")
    }

    @Test("A turn after an undelivered question takes its place: the same question again replaces it, a changed one is a new version of it")
    func turnAfterAnUndeliveredQuestion() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let id = try await Self.chat(["One"], url: url, home: home)
        let failed = try await ProductRunner.run("agent-cli", ["--server", server.url("http500"), "--chat", id, "Two?"], environment: home)
        #expect(failed.status != 0)
        // The server begins this time, then ends without a word: nothing got through either.
        let silent = try await ProductRunner.run("agent-cli", ["--server", server.url("silentcut"), "--chat", id, "Two?"], environment: home)
        #expect(silent.status != 0)
        #expect(silent.stderr.contains("cut off"), "\(silent.stderr)")
        var messages = Self.messages(of: try await Self.exported(id, home: home))
        #expect(messages.filter { $0["text"] as? String == "Two?" }.map { $0["state"] as? String } == ["failed"],
                "the same message sent again replaces the failed attempt")

        let retried = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "Two, again?"], environment: home)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdout == "Echo: Two, again? (3 messages)\n", "the undelivered copy not carried")
        messages = Self.messages(of: try await Self.exported(id, home: home))
        let attempts = messages.filter { ["Two?", "Two, again?"].contains($0["text"] as? String) }
        #expect(attempts.map { $0["state"] as? String } == ["failed", "done"], "a changed message keeps the failed one as a version")
        #expect(Set(attempts.map { $0["parent"] as? String }).count == 1, "two versions of one question")
        let requests = try await server.requests(containing: marker)
        #expect(requests.last.map(Self.carried) == ["user: One", "assistant: Echo: One (1 messages)", "user: Two, again?"])
    }

    @Test("--edit adds a version of a user message beside it, and the request carries only its branch")
    func editAddsAVersion() async throws {
        let marker = uniqueMarker()
        let url = server.url("echo/\(marker)")
        let home = AgentCLIChatTests.home()
        let id = try await Self.chat(["One", "Two"], url: url, home: home)
        let before = Self.messages(of: try await Self.exported(id, home: home))
        let two = try #require(before.first { $0["text"] as? String == "Two" })
        let twoID = try #require(two["id"] as? String)

        let edited = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "--edit", twoID], stdin: "Deux\n",
                                                 environment: home)
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout == "Echo: Deux (3 messages)\n")
        let requests = try await server.requests(containing: marker)
        #expect(requests.last.map(Self.carried) == ["user: One", "assistant: Echo: One (1 messages)", "user: Deux"])

        let chat = try await Self.exported(id, home: home)
        let messages = Self.messages(of: chat)
        let deux = try #require(messages.first { $0["text"] as? String == "Deux" })
        #expect(deux["role"] as? String == "user")
        #expect(deux["parent"] as? String == two["parent"] as? String, "a version of “Two”, with its parent")
        #expect(messages.contains { $0["id"] as? String == twoID }, "the edited message stays")
        let shown = try #require(messages.first { $0["id"] as? String == chat["current"] as? String })
        #expect(shown["parent"] as? String == deux["id"] as? String, "the branch of the new version is shown")

        let oneID = try #require(before.first { $0["text"] as? String == "One" }?["id"] as? String)
        let first = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id, "--edit", oneID, "Uno"], environment: home)
        #expect(first.stdout == "Echo: Uno (1 messages)\n", "a first message's version goes alone")
    }

    @Test("--edit refuses a message that is unknown, not the user's, or in another chat; --regenerate a chat without a reply")
    func refusals() async throws {
        let url = server.url("echo")
        let home = AgentCLIChatTests.home()
        let id = try await Self.chat(["Hello"], url: url, home: home)
        let other = try await Self.chat(["Elsewhere"], url: url, home: home)
        let messages = Self.messages(of: try await Self.exported(id, home: home))
        let replyID = try #require(messages.first { $0["role"] as? String == "assistant" }?["id"] as? String)
        let otherID = try #require(Self.messages(of: try await Self.exported(other, home: home)).first?["id"] as? String)

        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["--edit", UUID().uuidString, "x"], 1, "there is no message with id"),
            (["--edit", replyID, "x"], 1, "only a user message can be edited"),
            (["--edit", otherID, "x"], 1, "is not in chat \(id)"),
            (["--edit", "not-an-id", "x"], 2, "--edit needs a message id"),
            (["--regenerate", "again"], 2, "--regenerate takes no prompt"),
            (["--regenerate", "--edit", otherID], 2, "do not go together"),
        ]
        for (arguments, status, says) in cases {
            let run = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", id] + arguments, environment: home)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(says), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let withoutChat = try await ProductRunner.run("agent-cli", ["--server", url, "--regenerate"], environment: home)
        #expect(withoutChat.status == 2)
        #expect(withoutChat.stderr.contains("need --chat ID"))
        #expect(Self.messages(of: try await Self.exported(id, home: home)).count == 2, "nothing was added")

        let failed = try await ProductRunner.run("agent-cli", ["--server", server.url("http500"), "--chat", "new", "Unanswered"],
                                                 environment: home)
        let unanswered = try #require(AgentCLIChatTests.chatID(in: failed.stderr))
        let regenerate = try await ProductRunner.run("agent-cli", ["--server", url, "--chat", unanswered, "--regenerate"], environment: home)
        #expect(regenerate.status == 1)
        #expect(regenerate.stderr.contains("has no reply to regenerate"), "\(regenerate.stderr)")
    }
}
