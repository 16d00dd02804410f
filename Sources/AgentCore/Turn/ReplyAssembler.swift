/// Builds a reply message from a turn's events — its text, reasoning, tool calls, model and
/// token counts — the same way for the window's view model and for `agent-cli`.
public enum ReplyAssembler {
    /// Applies `event` to `reply`; returns a problem to show the user, if the event is one.
    @discardableResult
    public static func apply(_ event: ChatTurn.Event, to reply: inout ChatMessage) -> String? {
        switch event {
        case .reply(.started(let model, _)):
            if let model, !model.isEmpty { reply.model = model }
        case .reply(.usage(let usage)):
            reply.usage = usage
        case .reply(.reasoning(let piece)):
            if reply.reasoning == nil { reply.reasoning = .beginning() }
            reply.reasoning?.text += piece
        case .reply(let event):
            if appendText(of: event, to: &reply) { reply.reasoning?.end() }
        case .toolStarted(let call):
            reply.toolCalls.append(call)
        case .toolFinished(var call):
            call.progress = nil
            if let position = reply.toolCalls.lastIndex(where: { $0.id == call.id && $0.result == nil }) {
                reply.toolCalls[position] = call
            } else {
                reply.toolCalls.append(call)
            }
        case .toolProgress(let call, let progress):
            if let position = reply.toolCalls.lastIndex(where: { $0.id == call.id && $0.result == nil }) {
                reply.toolCalls[position].progress = progress
            }
        case .problem(let message):
            return message
        }
        return nil
    }

    /// Adds what `event` shows in the reply's text, a server's error as Agent's notice;
    /// whether it added anything.
    static func appendText(of event: ReplyEvent, to reply: inout ChatMessage) -> Bool {
        guard let text = event.transcriptText(replyIsEmpty: reply.text.isEmpty) else { return false }
        if case .serverError = event { reply.appendNotice(text) } else { reply.text += text }
        return true
    }
}
