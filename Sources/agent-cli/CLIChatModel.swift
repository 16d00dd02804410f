import AgentCore
import Foundation

/// `--chat ID` goes on with the model chosen for that chat in the window's model menu, unless
/// `--model` names one: a server's model when a server is given, a local one when it is not.
@MainActor
enum CLIChatModel {
    static func continuing(_ connection: ChatConnection, options: LaunchOptions, settings: SettingsStore) -> ChatConnection {
        guard options.model == nil, let id = options.chat.flatMap(UUID.init(uuidString:)),
              let choice = try? ChatStore().chat(id)?.chosenModel,
              (choice.place == .thisComputer) == connection.isLocal else { return connection }
        return connection.choosing(choice, localModels: settings.localModelChoices)
    }
}
