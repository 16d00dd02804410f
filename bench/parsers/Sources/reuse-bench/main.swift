import AgentCore
import Foundation

/// Sends `count` messages in a row from one process to the OpenAI-compatible server at `URL`
/// and prints each one's time to first token in milliseconds, one per line: what a user
/// waits for in a chat, connection set-up included. The reply takes the window's path:
/// events handed from the transfer's thread to the main actor through a `MainActorRelay`,
/// the first token timed when the main actor has it (as `ChatViewModel` receives it).
///
///     reuse-bench URL CAFILE COUNT
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: reuse-bench URL CAFILE COUNT\n".utf8))
    exit(2)
}

/// When the main actor received the first token of the message under way.
@MainActor final class FirstToken {
    var start = ContinuousClock.now
    var elapsed: Duration?

    func receive(_ events: [ReplyEvent]) {
        guard elapsed == nil, events.contains(where: { if case .text(let piece) = $0 { !piece.isEmpty } else { false } })
        else { return }
        elapsed = ContinuousClock.now - start
    }
}

let endpoint = ChatEndpoint(serverURL: arguments[1], model: "m", caFile: arguments[2].isEmpty ? nil : arguments[2])
let messages = [ChatMessage(role: .user, text: "hi", state: .done)]
let firstToken = FirstToken()
let relay = MainActorRelay<ReplyEvent> { firstToken.receive($0) }
for _ in 0..<count {
    firstToken.elapsed = nil
    firstToken.start = .now
    try await OpenAIChatClient(endpoint: endpoint).streamReply(to: messages) { relay.push($0) }
    relay.flush()
    guard let elapsed = firstToken.elapsed else {
        FileHandle.standardError.write(Data("no token in the reply\n".utf8))
        exit(1)
    }
    print(String(format: "%.3f", elapsed / .milliseconds(1)))
}
