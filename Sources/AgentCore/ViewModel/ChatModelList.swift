import FoundationEssentials

/// The models the header's model menu offers: the current server's, listed in the background
/// when asked for (the menu opens, a chat with a chosen server model opens), and those the app
/// can run itself.
@MainActor
public final class ChatModelList {
    public enum ServerModels: Equatable, Sendable {
        /// Not asked for since the server last changed.
        case notListed
        /// The default is the local model: there is no server to ask.
        case noServer
        case loading
        case listed([String])
        /// The server could not be asked; why, in words for the menu.
        case failed(String)
    }

    public private(set) var server: ServerModels = .notListed {
        didSet { if server != oldValue { onChange?() } }
    }

    /// The models the local runtime can run.
    public var local: [LocalModel] {
        didSet { if local != oldValue { onChange?() } }
    }

    /// The CPU threads a local model chosen for a chat runs with while the default is a
    /// server (the local default's server has its own); nil: one per core.
    public internal(set) var localThreads: Int?

    /// Told when either list changed.
    var onChange: (() -> Void)?
    /// Changes with every listing asked for, so a late answer from an earlier one is dropped.
    private var generation = 0

    public init(local: [LocalModel] = (try? InstalledModels.builtIns()) ?? []) {
        self.local = local
    }

    /// Asks `connection`'s server for its models, off the main thread; `server` follows.
    public func refresh(from connection: ChatConnection) {
        generation += 1
        let generation = generation
        server = .loading
        Task {
            let result: ServerModels
            if let endpoint = await connection.serverEndpoint() {
                do {
                    result = .listed(try await ModelCatalog.models(for: endpoint))
                } catch {
                    result = .failed(ChatError.describe(error))
                }
            } else {
                result = .noServer
            }
            guard generation == self.generation else { return }
            server = result
        }
    }

    /// The server changed: what was listed is no longer its models.
    func forgetServer() {
        generation += 1
        server = .notListed
    }

    /// Whether the server's list, once known, lacks `name`. An empty list proves nothing:
    /// some servers (the llmtools harness) list none.
    func lacks(_ name: String) -> Bool {
        guard case .listed(let names) = server, !names.isEmpty else { return false }
        return !names.contains(name)
    }
}
