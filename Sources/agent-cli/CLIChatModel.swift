import AgentCore
import Foundation

/// A run asks for the model its chat settings choose (an existing chat's, chosen in the window's
/// model menu; a preset's), unless `--model` names one: a server's model when a server is given,
/// a local one when it is not.
@MainActor
enum CLIChatModel {
    static func choosing(_ choice: ModelChoice?, for connection: ChatConnection, options: LaunchOptions,
                         settings: SettingsStore) -> ChatConnection {
        guard options.model == nil, let choice, (choice.place == .thisComputer) == connection.isLocal else { return connection }
        return connection.choosing(choice, localModels: settings.localModelChoices)
    }
}
