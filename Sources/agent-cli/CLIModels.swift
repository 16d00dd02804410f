import AgentCore
import Foundation

/// `--discover` and `--list-models`: what servers run on this computer, and what models a
/// server (or the local runtime) offers, one per line for scripts.
enum CLIModels {
    /// One line per server found: URL, protocol and the models, comma-separated, tab apart.
    /// Finding nothing is no failure: nothing is printed.
    static func discover() async {
        for server in await LocalServerDiscovery.discover() {
            StandardStreams.line("\(server.url)\t\(server.protocolKind.rawValue)\t\(server.models.joined(separator: ","))")
        }
    }

    /// The models of `endpoint`, or the local runtime's installed ones without it, one a
    /// line; false (the reason on stderr) when they cannot be listed.
    static func listModels(_ endpoint: ChatEndpoint?) async -> Bool {
        do {
            let models = if let endpoint { try await ModelCatalog.models(for: endpoint) } else { try InstalledModels.names() }
            for model in models { StandardStreams.line(model) }
            return true
        } catch {
            AgentCLI.writeFailure(ChatError.describe(error))
            return false
        }
    }
}
