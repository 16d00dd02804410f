import FoundationEssentials

/// A server the user set up in Preferences: where it is, how to speak to it, which model.
/// Its API key is in the keyring under the profile's id, never here.
public struct ServerProfile: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    public var url: String
    public var protocolKind: ChatProtocol
    /// nil: the protocol's usual path.
    public var apiPath: String?
    public var model: String
    public var caFile: String?
    public var toolsEnabled: Bool

    public init(id: String = UUID().uuidString.lowercased(), name: String, url: String, protocol protocolKind: ChatProtocol = .openai,
                apiPath: String? = nil, model: String, caFile: String? = nil, toolsEnabled: Bool = true) {
        self.id = id
        self.name = name
        self.url = url
        self.protocolKind = protocolKind
        self.apiPath = apiPath
        self.model = model
        self.caFile = caFile
        self.toolsEnabled = toolsEnabled
    }

    public func endpoint(apiKey: APIKey?) -> ChatEndpoint {
        ChatEndpoint(serverURL: url, protocol: protocolKind, apiPath: apiPath, model: model, apiKey: apiKey, caFile: caFile)
    }
}

/// The id of the built-in choice "this computer" (the local model) among the profiles.
public let localProfileID = "local"

extension SettingsStore {
    /// The profiles, by name.
    public var serverProfiles: [ServerProfile] {
        root.strings("profiles").compactMap(serverProfile).sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    public func serverProfile(_ id: String) -> ServerProfile? {
        guard let settings = profileSettings(id) else { return nil }
        let url = settings.string("url")
        guard !url.isEmpty else { return nil }
        let name = settings.string("name")
        let model = settings.string("model")
        return ServerProfile(id: id, name: name.isEmpty ? url : name, url: url,
                             protocol: ChatProtocol(rawValue: settings.string("protocol")) ?? .openai,
                             apiPath: Self.nonEmpty(settings.string("api-path")),
                             model: model.isEmpty ? LaunchOptions.defaultRemoteModel : model,
                             caFile: Self.nonEmpty(settings.string("ca-file")), toolsEnabled: settings.bool("tools"))
    }

    public func saveProfile(_ profile: ServerProfile) {
        guard let settings = profileSettings(profile.id) else { return }
        settings.set("name", profile.name)
        settings.set("url", profile.url)
        settings.set("protocol", profile.protocolKind.rawValue)
        settings.set("api-path", profile.apiPath ?? "")
        settings.set("model", profile.model)
        settings.set("ca-file", profile.caFile ?? "")
        settings.set("tools", profile.toolsEnabled)
        let ids = root.strings("profiles")
        if !ids.contains(profile.id) { root.set("profiles", ids + [profile.id]) }
    }

    public func removeProfile(_ id: String) {
        if let settings = profileSettings(id) {
            for key in ["name", "url", "protocol", "api-path", "model", "ca-file", "tools"] { settings.reset(key) }
        }
        root.set("profiles", root.strings("profiles").filter { $0 != id })
        if activeProfileID == id { activeProfileID = localProfileID }
    }

    /// The profile chats go to: a server's id, or `localProfileID`.
    public var activeProfileID: String {
        get {
            let id = root.string("active-profile")
            return id == localProfileID || root.strings("profiles").contains(id) ? id : localProfileID
        }
        set { root.set("active-profile", newValue) }
    }

    private static func nonEmpty(_ text: String) -> String? {
        text.isEmpty ? nil : text
    }
}
