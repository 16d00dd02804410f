import FoundationEssentials

/// What `agent` asks of the window, carried to the running instance when there is one
/// (`agent --new-chat [TEXT]`, `agent --open CHAT_ID`, a notification's Open).
public enum WindowRequest: Sendable, Equatable {
    /// A new chat (from the preset used last), sending `message` when there is one.
    case newChat(message: String?)
    /// The chat with this id.
    case open(UUID)
}
