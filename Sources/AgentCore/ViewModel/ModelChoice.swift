/// The model a chat is to use, chosen in the header's model menu: one of the current server's
/// models, or one the local runtime runs. A chat without one uses the default (the server
/// profile's model, or the local model in Preferences).
public struct ModelChoice: Sendable, Hashable {
    public enum Place: String, Sendable {
        /// A model the current server lists.
        case server
        /// A model the app runs itself (llama-server).
        case thisComputer = "local"
    }

    /// The server's model id, or the local model's id (`LocalModel.id`).
    public let name: String
    public let place: Place

    public init(name: String, place: Place) {
        self.name = name
        self.place = place
    }

    public static func server(_ name: String) -> ModelChoice { ModelChoice(name: name, place: .server) }

    public static func local(_ model: LocalModel) -> ModelChoice { ModelChoice(name: model.id, place: .thisComputer) }
}
