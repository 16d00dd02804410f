import FoundationEssentials

/// The main window's state, restored at the next start.
extension SettingsStore {
    /// The chat on screen when the window was last used; nil: a new chat.
    public var lastChat: UUID? {
        get { UUID(uuidString: root.string("last-chat")) }
        set { root.set("last-chat", newValue?.uuidString ?? "") }
    }
}
