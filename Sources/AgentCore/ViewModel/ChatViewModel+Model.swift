/// A model per chat: the one chosen in the header's menu is kept with the chat and used for its
/// next turns; a new chat starts with the default; a chat whose model has gone says so.
extension ChatViewModel {
    /// The chat's own model; nil: the default.
    public var chosenModel: ModelChoice? { settings.model }

    /// Uses `choice` for this chat's next turns (nil: the default) and keeps it with the chat;
    /// a new chat keeps it from its first message on.
    public func choose(_ choice: ModelChoice?) {
        var changed = settings
        changed.model = choice
        apply(changed)
    }

    /// Asks the current server for its models (the menu opened); `models` follows.
    public func listModels() {
        models.refresh(from: defaultConnection)
    }

    /// The chat's model when it has gone: the server does not list it (or said it has no such
    /// model when asked for a reply), there is no server any more for a server's model, or the
    /// local runtime no longer has it. Nil while it is there, or while nobody knows.
    public var goneModel: ModelChoice? {
        if let missingModel, missingModel.name == connection.modelName || missingModel == chosenModel { return missingModel }
        guard let choice = chosenModel else {
            return !connection.isLocal && models.lacks(connection.modelName) ? .server(connection.modelName) : nil
        }
        switch choice.place {
        case .server:
            return defaultConnection.isLocal || models.lacks(choice.name) ? choice : nil
        case .thisComputer:
            return models.local.contains { $0.id == choice.name } ? nil : choice
        }
    }

    /// What the menu shows for `choice`: a local model's name, a server model's id.
    public func displayName(of choice: ModelChoice) -> String {
        guard choice.place == .thisComputer else { return choice.name }
        return (models.local + LocalModel.all).first { $0.id == choice.name }?.displayName ?? choice.name
    }

    /// Another chat opened, or a new one: its model's connection takes over, and a chosen
    /// server model is looked for in the server's list.
    func followChosenModel() {
        missingModel = nil
        applyChosenModel()
        if chosenModel?.place == .server { listModels() }
    }

    /// The models the local runtime can run, and the threads a chat's own local model runs with
    /// while a server is the default; the open chat's own local model follows a change at once.
    public func setLocalModels(_ local: [LocalModel], threads: Int?) {
        models.local = local
        models.localThreads = threads
        applyChosenModel()
    }

    /// Switches to the chosen model's connection unless the one replies go to already is it.
    func applyChosenModel() {
        let wanted = defaultConnection.choosing(chosenModel, localModels: models.local, localThreads: models.localThreads)
        guard wanted.configuration != upcomingConnection.configuration else { return }
        switchConnection(to: wanted)
    }

    /// When the server refused a reply because it has no such model: the window says so in
    /// place of an alert, and the server's list is fetched for the menu. True when handled.
    func noticeMissingModel(_ error: any Error, on connection: ChatConnection) -> Bool {
        guard !connection.isLocal, (error as? ChatError)?.saysModelIsMissing == true else { return false }
        missingModel = .server(connection.modelName)
        listModels()
        notify(.status)
        return true
    }
}
