import FoundationEssentials

/// A model server found running on this computer: where it listens, how to speak to it,
/// what it is, and the models it offers.
public struct FoundServer: Sendable, Equatable {
    /// `http://127.0.0.1:PORT` or `http://[::1]:PORT`.
    public var url: String
    public var protocolKind: ChatProtocol
    /// What it is, e.g. "Ollama", "llama-server", "LM Studio", "vLLM".
    public var name: String
    public var models: [String]

    public init(url: String, protocol protocolKind: ChatProtocol, name: String, models: [String]) {
        self.url = url
        self.protocolKind = protocolKind
        self.name = name
        self.models = models
    }

    /// "Ollama on this computer".
    // TRANSLATORS: a model server found running here; %s is what it is, "Ollama", "LM Studio".
    public var title: String { tr("%s on this computer", name) }

    /// "4 models", "1 model", "no models".
    public var modelCount: String {
        models.isEmpty ? tr("no models") : trn("%d model", "%d models", models.count)
    }

    /// The server profile that makes chats go here, with its first model.
    public func profile() -> ServerProfile {
        ServerProfile(name: title, url: url, protocol: protocolKind, model: models.first ?? LaunchOptions.defaultRemoteModel)
    }

    /// Whether `profile` already points at this server: the same port on this computer
    /// (whether written as localhost, 127.0.0.1 or ::1) with the same protocol.
    public func isAdded(as profile: ServerProfile) -> Bool {
        profile.protocolKind == protocolKind && Self.loopbackPort(of: profile.url) != nil
            && Self.loopbackPort(of: profile.url) == Self.loopbackPort(of: url)
    }

    /// Whether any of `profiles` points at this server.
    public func isAdded(in profiles: [ServerProfile]) -> Bool {
        profiles.contains(where: isAdded(as:))
    }

    /// The port of a plain-HTTP URL on this computer; nil for any other URL.
    static func loopbackPort(of url: String) -> Int? {
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "http", var host = parsed.host?.lowercased() else {
            return nil
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard host == "localhost" || host == "::1" || host.hasPrefix("127.") else { return nil }
        return parsed.port ?? 80
    }
}
