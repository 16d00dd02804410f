@testable import AgentCore
import Foundation
import Testing

@Suite("GNOME Shell search ids")
struct ShellSearchTests {
    @Test("A result id names a chat, or a chat and a message in it; anything else is refused")
    func locations() {
        let chat = UUID(), message = UUID()
        #expect(ShellSearch.location(of: chat.uuidString)?.chat == chat)
        #expect(ShellSearch.location(of: chat.uuidString)?.message == nil)
        #expect(ShellSearch.location(of: "\(chat.uuidString)/\(message.uuidString)")?.message == message)
        for bad in ["", "chat", "\(chat.uuidString)/x", "\(chat.uuidString)/\(message.uuidString)/\(message.uuidString)"] {
            #expect(ShellSearch.location(of: bad) == nil, "\(bad)")
        }
    }
}
