import FoundationEssentials

/// A conversation as chat APIs want it: each assistant reply that called tools becomes, per
/// round, an assistant message carrying that round's text and calls followed by one tool
/// message per result, and then the reply's final text. A reply carries the model's words
/// only, never Agent's notices in it.
enum WireMessage: Equatable {
    /// A message's text; a user's with the text of the files attached to it, and its images.
    case plain(role: Role, content: String, images: [AttachedFile] = [])
    case assistantCalls(content: String, calls: [ToolCall])
    case toolResult(ToolCall)

    static func expand(_ messages: [ChatMessage]) -> [WireMessage] {
        var wire: [WireMessage] = []
        for message in messages {
            let answered = message.toolCalls.filter { $0.result != nil }
            guard message.role == .assistant, !answered.isEmpty else {
                wire.append(.plain(role: message.role, content: AttachmentMessage.compose(message.modelText, files: message.attachments),
                                   images: message.attachments.filter { $0.kind == .image }))
                continue
            }
            let length = message.text.utf8.count
            var consumed = 0
            var index = 0
            while index < answered.count {
                let offset = min(max(answered[index].textOffset, consumed), length)
                let round = answered[index].round
                var group: [ToolCall] = []
                while index < answered.count, answered[index].round == round {
                    group.append(answered[index])
                    index += 1
                }
                wire.append(.assistantCalls(content: message.modelWords(from: consumed, to: offset), calls: group))
                wire += group.map(WireMessage.toolResult)
                consumed = offset
            }
            let rest = message.modelWords(from: consumed, to: length)
            if !rest.isEmpty { wire.append(.plain(role: .assistant, content: rest)) }
        }
        return wire
    }
}

extension ToolCall {
    /// Parses an OpenAI-style argument string: empty means no arguments; text that is not
    /// JSON is kept as a string, which validation then refuses with a clear message.
    static func arguments(fromText text: String) -> JSONValue {
        let trimmed = text.trimmed
        if trimmed.isEmpty { return .object([]) }
        return (try? JSONParser.parse(trimmed)) ?? .string(text)
    }
}
