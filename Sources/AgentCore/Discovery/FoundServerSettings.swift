extension SettingsStore {
    /// The found servers whose offer in the window the user dismissed, by URL.
    public var declinedFoundServers: [String] {
        get { root.strings("declined-found-servers") }
        set { root.set("declined-found-servers", newValue) }
    }

    /// Adds `server` as a profile and makes it where chats go; returns the profile.
    @discardableResult
    public func use(_ server: FoundServer) -> ServerProfile {
        let profile = server.profile()
        saveProfile(profile)
        activeProfileID = profile.id
        return profile
    }
}
