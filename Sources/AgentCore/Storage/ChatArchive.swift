import FoundationEssentials

/// Chats as files: JSON that imports back exactly (one chat or all: every branch, each
/// message's `parent`, the branch shown as the chat's `current`, its settings), and Markdown
/// to read (the branch shown). A reply's reasoning goes into JSON only: the Markdown is the
/// conversation itself. Version 1 files (one branch, no parents) still import.
public enum ChatArchive {
    /// A chat with all its messages, parents before children.
    public struct Chat: Sendable, Equatable {
        public var summary: ChatSummary
        public var messages: [ChatMessage]

        public init(summary: ChatSummary, messages: [ChatMessage]) {
            self.summary = summary
            self.messages = messages
        }

        /// The branch the chat shows, first message first: up from `current` (else the last message).
        public var branchShown: [ChatMessage] {
            let byID = Dictionary(messages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var branch: [ChatMessage] = []
            var next = summary.currentMessageID.flatMap { byID[$0] } ?? messages.last
            while let message = next, branch.count < messages.count {
                branch.append(message)
                next = message.parentID.flatMap { byID[$0] }
            }
            return branch.reversed()
        }
    }

    public static let format = "agent-chats"
    public static let version = 2

    public struct FormatError: Error, Equatable, LocalizedError {
        public let message: String
        public var errorDescription: String? { message }
    }

    // MARK: JSON

    public static func json(_ chats: [Chat]) -> String {
        JSONValue.object([
            ("format", .string(format)),
            ("version", .number(Double(version))),
            ("chats", .array(chats.map(json))),
        ]).serialized + "\n"
    }

    private static func json(_ chat: Chat) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(chat.summary.id.uuidString)),
            ("title", .string(chat.summary.title)),
            ("created", .number(chat.summary.created.timeIntervalSince1970)),
            ("updated", .number(chat.summary.updated.timeIntervalSince1970)),
            ("systemPrompt", .string(chat.summary.systemPrompt)),
        ]
        if let model = chat.summary.model { members.append(("model", .string(model))) }
        if let profile = chat.summary.serverProfile { members.append(("serverProfile", .string(profile))) }
        if let choice = chat.summary.chosenModel {
            members.append(("chosenModel", .object([("name", .string(choice.name)), ("place", .string(choice.place.rawValue))])))
        }
        if let temperature = chat.summary.temperature { members.append(("temperature", .number(temperature))) }
        if let maxTokens = chat.summary.maxTokens { members.append(("maxTokens", .number(Double(maxTokens)))) }
        members.append(("toolsEnabled", .bool(chat.summary.toolsEnabled)))
        if let preset = chat.summary.preset { members.append(("preset", .string(preset))) }
        members.append(("current", chat.summary.currentMessageID.map { .string($0.uuidString) } ?? .null))
        members.append(("messages", .array(chat.messages.map(json))))
        return .object(members)
    }

    /// A chat's chosen model as exported; nil when its name or place is not one this build knows.
    private static func modelChoice(_ json: JSONValue) -> ModelChoice? {
        guard let name = json["name"]?.stringValue, !name.isEmpty,
              let place = json["place"]?.stringValue.flatMap(ModelChoice.Place.init(rawValue:)) else { return nil }
        return ModelChoice(name: name, place: place)
    }

    private static func json(_ message: ChatMessage) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(message.id.uuidString)),
            ("parent", message.parentID.map { .string($0.uuidString) } ?? .null),
            ("role", .string(message.role.rawValue)),
            ("text", .string(message.text)),
            ("time", .number(message.time.timeIntervalSince1970)),
            ("state", .string(message.state.rawValue)),
        ]
        if let model = message.model { members.append(("model", .string(model))) }
        if !message.toolCalls.isEmpty { members.append(("toolCalls", .array(message.toolCalls.map(\.json)))) }
        if let usage = message.usage {
            var fields: [(key: String, value: JSONValue)] = []
            if let prompt = usage.promptTokens { fields.append(("promptTokens", .number(Double(prompt)))) }
            if let completion = usage.completionTokens { fields.append(("completionTokens", .number(Double(completion)))) }
            if let seconds = usage.generationSeconds { fields.append(("generationSeconds", .number(seconds))) }
            members.append(("usage", .object(fields)))
        }
        if !message.attachments.isEmpty { members.append(("attachments", .array(message.attachments.map(json)))) }
        if !message.sources.isEmpty { members.append(("sources", .array(message.sources.map(\.json)))) }
        if let reasoning = message.reasoning {
            members.append(("reasoning", .string(reasoning.text)))
            if let seconds = reasoning.seconds { members.append(("reasoningSeconds", .number(seconds))) }
        }
        if !message.notices.isEmpty { members.append(("notices", ChatMessage.noticesJSON(message.notices))) }
        return .object(members)
    }

    /// A file with its bytes in base64 (its text too, so a PDF's reads back without poppler).
    private static func json(_ file: AttachedFile) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(file.name)), ("mediaType", .string(file.mediaType)),
            ("byteCount", .number(Double(file.byteCount))), ("data", .string(file.data.base64EncodedString())),
        ]
        if let text = file.text { members.append(("text", .string(text))) }
        return .object(members)
    }

    /// A file from an export; its digest is computed again from its bytes, never trusted.
    private static func attachment(_ json: JSONValue, in title: String) throws -> AttachedFile {
        guard let name = json["name"]?.stringValue, let mediaType = json["mediaType"]?.stringValue,
              let data = json["data"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
            throw FormatError(message: tr("A file attached in “%s” has no name, type or readable data.", title))
        }
        return AttachedFile(name: name, mediaType: mediaType, byteCount: json["byteCount"]?.intValue ?? data.count, data: data,
                          text: json["text"]?.stringValue)
    }

    /// Reads chats exported by `json`; refuses anything else with a reason.
    public static func parse(_ text: String) throws -> [Chat] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw FormatError(message: tr("This is not a chat export: %s", String(describing: error)))
        }
        guard root["format"]?.stringValue == format else { throw FormatError(message: tr("This is not an Agent chat export.")) }
        guard let fileVersion = root["version"]?.intValue, fileVersion <= version else {
            throw FormatError(message: tr("This chat export is from a newer Agent."))
        }
        return try (root["chats"]?.arrayValue ?? []).map { chat in
            guard let id = chat["id"]?.stringValue.flatMap(UUID.init(uuidString:)), let title = chat["title"]?.stringValue else {
                throw FormatError(message: tr("A chat in the export has no id or title."))
            }
            var summary = ChatSummary(id: id, title: title,
                                      created: Self.date(chat["created"]),
                                      updated: Self.date(chat["updated"]),
                                      model: chat["model"]?.stringValue, serverProfile: chat["serverProfile"]?.stringValue,
                                      systemPrompt: chat["systemPrompt"]?.stringValue ?? "",
                                      chosenModel: chat["chosenModel"].flatMap(Self.modelChoice),
                                      temperature: Self.temperature(chat["temperature"]),
                                      maxTokens: chat["maxTokens"]?.intValue.flatMap { $0 > 0 ? $0 : nil },
                                      toolsEnabled: chat["toolsEnabled"]?.boolValue ?? true,
                                      preset: chat["preset"]?.stringValue)
            var messages = try (chat["messages"]?.arrayValue ?? []).map { try message($0, in: title) }
            if fileVersion < 2 {
                messages = ChatMessage.chained(messages)
            } else {
                try checkTree(messages, in: title)
            }
            let current = chat["current"]?.stringValue.flatMap(UUID.init(uuidString:))
            summary.currentMessageID = current.flatMap { id in messages.contains { $0.id == id } ? id : nil } ?? messages.last?.id
            return Chat(summary: summary, messages: messages)
        }
    }

    private static func message(_ message: JSONValue, in title: String) throws -> ChatMessage {
        guard let id = message["id"]?.stringValue.flatMap(UUID.init(uuidString:)),
              let role = message["role"]?.stringValue.flatMap(Role.init(rawValue:)),
              let text = message["text"]?.stringValue else {
            throw FormatError(message: tr("A message in “%s” has no id, role or text.", title))
        }
        let usage = message["usage"].map { usage in
            TokenUsage(promptTokens: usage["promptTokens"]?.intValue,
                       completionTokens: usage["completionTokens"]?.intValue,
                       generationSeconds: usage["generationSeconds"]?.numberValue)
        }
        return ChatMessage(id: id, parentID: message["parent"]?.stringValue.flatMap(UUID.init(uuidString:)), role: role, text: text,
                           model: message["model"]?.stringValue,
                           time: Self.date(message["time"]),
                           state: message["state"]?.stringValue.flatMap(MessageState.init(rawValue:)) ?? .done,
                           toolCalls: (message["toolCalls"]?.arrayValue ?? []).compactMap(ToolCall.init(json:)),
                           usage: usage,
                           attachments: try (message["attachments"]?.arrayValue ?? []).map { try attachment($0, in: title) },
                           sources: (message["sources"]?.arrayValue ?? []).compactMap(KnowledgeSource.init(json:)),
                           reasoning: message["reasoning"]?.stringValue.map { text in
                               Reasoning(text: text, seconds: Self.seconds(message["reasoningSeconds"]))
                           },
                           notices: ChatMessage.notices(from: message["notices"], in: text))
    }

    /// Refuses a chat whose messages are not a tree written parents first: each parent is an
    /// earlier message of the same chat (so no loop), and no id comes twice.
    private static func checkTree(_ messages: [ChatMessage], in title: String) throws {
        var seen = Set<UUID>()
        for message in messages {
            if let parent = message.parentID, !seen.contains(parent) {
                throw FormatError(message: tr("A message in “%s” follows one that is not before it in the chat.", title))
            }
            guard seen.insert(message.id).inserted else {
                throw FormatError(message: tr("Two messages in “%s” have the same id.", title))
            }
        }
    }

    /// A temperature from an export: 0–2, or none.
    private static func temperature(_ value: JSONValue?) -> Double? {
        guard let temperature = value?.numberValue, temperature.isFinite, (0...2).contains(temperature) else { return nil }
        return temperature
    }

    // MARK: Markdown

    public static func markdown(_ chat: Chat) -> String {
        var lines = ["# \(chat.summary.title)", ""]
        if !chat.summary.systemPrompt.isEmpty {
            lines += ["> System prompt: \(chat.summary.systemPrompt)", ""]
        }
        for message in chat.branchShown {
            let author = message.role == .user ? "You" : message.englishAuthorLabel
            var heading = "**\(author)** · \(message.isoTime)"
            switch message.state {
            case .cutOff: heading += " · cut off"
            case .stopped: heading += " · stopped"
            case .failed: heading += message.role == .user ? " · not delivered" : " · failed"
            default: break
            }
            lines += [heading, ""]
            for call in message.toolCalls {
                lines.append("> Tool `\(call.name)(\(call.arguments.serialized))` → \(call.result ?? "")")
            }
            if !message.toolCalls.isEmpty { lines.append("") }
            if !message.attachments.isEmpty {
                let files = message.attachments.map { "\($0.name) (\(ByteCountText.english($0.byteCount)))" }
                lines += ["> Attached: " + files.joined(separator: ", "), ""]
            }
            lines += [message.text, ""]
            if !message.sources.isEmpty { lines += ["> Sources: " + message.sources.map(Self.englishLabel).joined(separator: ", "), ""] }
        }
        return lines.joined(separator: "\n")
    }

    /// "notes.md", "report.pdf, page 3", in English like the rest of the export's frame.
    private static func englishLabel(_ source: KnowledgeSource) -> String {
        let name = URL(filePath: source.path).lastPathComponent
        return source.page.map { "\(name), page \($0)" } ?? name
    }

    /// A duration from an export: finite and not negative, or none.
    private static func seconds(_ value: JSONValue?) -> Double? {
        guard let seconds = value?.numberValue, seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// A time from an export: seconds since 1970, within the years 1970–5000 (a file is
    /// untrusted: NaN or 1e300 would break every place that shows the date).
    private static func date(_ value: JSONValue?) -> Date {
        guard let seconds = value?.numberValue, seconds.isFinite, seconds >= 0, seconds < 95_617_584_000 else {
            return Date(timeIntervalSince1970: 0)
        }
        return Date(timeIntervalSince1970: seconds)
    }
}

extension ChatStore {
    /// A whole chat for export.
    public func archive(_ id: UUID) throws -> ChatArchive.Chat? {
        guard var summary = try chat(id) else { return nil }
        summary.currentMessageID = try currentLeaf(of: id)
        return ChatArchive.Chat(summary: summary, messages: try messages(in: id).map(\.message))
    }

    /// Every chat, most recent first.
    public func archiveAll() throws -> [ChatArchive.Chat] {
        try chats().compactMap { try archive($0.id) }
    }

    /// Adds exported chats, in one transaction: a file that fails halfway adds nothing. A chat
    /// whose id (or a message id) is already here comes in as a copy with new ids.
    @discardableResult
    public func importChats(_ chats: [ChatArchive.Chat]) throws -> [ChatSummary] {
        try inTransaction { database in
            try chats.map { chat in
                var summary = chat.summary
                var messages = chat.messages
                let taken = try database.query("SELECT 1 FROM chats WHERE id = ?", [.text(summary.id.uuidString)]).count
                    + (try messages.reduce(0) { count, message in
                        count + (try database.query("SELECT 1 FROM messages WHERE id = ?", [.text(message.id.uuidString)]).count)
                    })
                if taken > 0 {
                    (summary, messages) = Self.withNewIDs(summary, messages)
                }
                try Self.insert(summary, into: database)
                try Self.insert(messages, in: summary.id, firstSeq: 0, into: database)
                return summary
            }
        }
    }

    /// A copy of a chat under new ids, its tree and the branch it shows kept.
    private static func withNewIDs(_ summary: ChatSummary, _ messages: [ChatMessage]) -> (ChatSummary, [ChatMessage]) {
        var newIDs: [UUID: UUID] = [:]
        for message in messages { newIDs[message.id] = UUID() }
        var copy = ChatSummary(title: summary.title, created: summary.created, updated: summary.updated, model: summary.model,
                           serverProfile: summary.serverProfile, knowledgeFolders: summary.knowledgeFolders, preset: summary.preset,
                           currentMessageID: summary.currentMessageID.flatMap { newIDs[$0] })
        copy.settings = summary.settings
        let renamed = messages.map { message in
            ChatMessage(id: newIDs[message.id] ?? UUID(), parentID: message.parentID.flatMap { newIDs[$0] }, role: message.role,
                        text: message.text, model: message.model, time: message.time, state: message.state,
                        toolCalls: message.toolCalls, usage: message.usage, attachments: message.attachments,
                        sources: message.sources, reasoning: message.reasoning, notices: message.notices)
        }
        return (copy, renamed)
    }
}
