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
    private static let profilePrefix = "profile "

    public var serverProfiles: [ServerProfile] {
        groups(withPrefix: Self.profilePrefix).compactMap { group in
            let id = String(group.dropFirst(Self.profilePrefix.count))
            guard let url = string(group, "url") else { return nil }
            return ServerProfile(id: id, name: string(group, "name") ?? url, url: url,
                                 protocol: string(group, "protocol").flatMap(ChatProtocol.init(rawValue:)) ?? .openai,
                                 apiPath: string(group, "api-path"), model: string(group, "model") ?? LaunchOptions.defaultRemoteModel,
                                 caFile: string(group, "ca-file"), toolsEnabled: string(group, "tools") != "false")
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    public func saveProfile(_ profile: ServerProfile) {
        let group = Self.profilePrefix + profile.id
        set(profile.name, group, "name")
        set(profile.url, group, "url")
        set(profile.protocolKind.rawValue, group, "protocol")
        set(profile.apiPath?.isEmpty == false ? profile.apiPath : nil, group, "api-path")
        set(profile.model, group, "model")
        set(profile.caFile?.isEmpty == false ? profile.caFile : nil, group, "ca-file")
        set(profile.toolsEnabled ? "true" : "false", group, "tools")
    }

    public func removeProfile(_ id: String) {
        removeGroup(Self.profilePrefix + id)
        if activeProfileID == id { activeProfileID = localProfileID }
    }

    /// The profile chats go to: a server's id, or `localProfileID`.
    public var activeProfileID: String {
        get { string("general", "profile") ?? localProfileID }
        set { set(newValue == localProfileID ? nil : newValue, "general", "profile") }
    }
}
