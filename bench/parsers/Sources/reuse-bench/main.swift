import AgentCore
import Foundation

/// Sends `count` messages in a row from one process to the OpenAI-compatible server at `URL`
/// and prints each one's time to first token in milliseconds, one per line: what a user
/// waits for in a chat, connection set-up included.
///
///     reuse-bench URL CAFILE COUNT
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: reuse-bench URL CAFILE COUNT\n".utf8))
    exit(2)
}
let endpoint = ChatEndpoint(serverURL: arguments[1], model: "m", caFile: arguments[2].isEmpty ? nil : arguments[2])
let messages = [ChatMessage(role: .user, text: "hi", state: .done)]
for _ in 0..<count {
    let start = ContinuousClock.now
    var firstToken: Duration?
    for try await event in OpenAIChatClient(endpoint: endpoint).replyEvents(to: messages) {
        if case .text(let piece) = event, !piece.isEmpty, firstToken == nil { firstToken = ContinuousClock.now - start }
    }
    guard let firstToken else {
        FileHandle.standardError.write(Data("no token in the reply\n".utf8))
        exit(1)
    }
    print(String(format: "%.3f", firstToken / .milliseconds(1)))
}
