/// The `llmtools` harness: POST `/llmtools` with `appID`, `model`, `messages`,
/// `stream` and `tools`. The server keeps the conversation per `appID`, so a turn's first
/// request carries only the new user message, and each follow-up only the tool results
/// (without `tools`), as the harness expects.
public struct HarnessChatClient: ChatBackend {
    public let endpoint: ChatEndpoint
    /// Stable per installation and per chat, so one user's chats keep separate contexts.
    public let appID: String

    public init(endpoint: ChatEndpoint, appID: String) {
        self.endpoint = endpoint
        self.appID = appID
    }

    public func streamRound(_ round: ChatRound, onEvent: @escaping @Sendable (ReplyEvent) -> Void) async throws -> [ToolCall] {
        let request = try endpoint.streamingRequest(body: Self.body(for: round, appID: appID, model: endpoint.model),
                                                    accept: "text/event-stream")
        return try await ReplyStreamRunner.run(request, decoder: HarnessStreamDecoder(), onEvent: onEvent)
    }

    static func body(for round: ChatRound, appID: String, model: String) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("appID", .string(appID)), ("model", .string(model))]
        if round.toolResults.isEmpty {
            let prompt = round.messages.last { $0.role == .user } ?? ChatMessage(role: .user, text: "", state: .done)
            members.append(("messages", .array(WireMessage.expand([prompt]).map(OllamaRequestBody.encode))))
            members.append(("stream", .bool(true)))
            if !round.tools.isEmpty { members.append(("tools", .array(round.tools.map(\.wireJSON)))) }
        } else {
            members.append(("messages", .array(round.toolResults.map(OllamaRequestBody.toolResult))))
            members.append(("stream", .bool(true)))
        }
        return .object(members)
    }
}
