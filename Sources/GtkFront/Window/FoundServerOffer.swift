import AgentCore
import CGtk

/// The offer, across the top of the chat, of a model server found running on this computer
/// ("Ollama is running on this computer · 4 models", Use It) while chats go to the local
/// model and the server is no profile yet. It looks once, in the background, after the
/// window's first frame; a dismissed offer is not made again for that server.
@MainActor
final class FoundServerOffer {
    let banner = Banner(buttonLabel: tr("_Use It"), action: "win.use-found-server", offer: true)
    /// The server offered, while the banner shows.
    private(set) var server: FoundServer?
    /// Whether the look at this computer's ports has ended.
    private(set) var looked = false
    private let settings: SettingsStore
    /// Whether chats go to the local model now (or will, once a streaming reply has ended).
    private let chatsGoToLocalModel: @MainActor () -> Bool
    /// Runs when the user takes the offer.
    var onUse: ((FoundServer) -> Void)?

    init(window: UnsafeMutablePointer<GtkWidget>, settings: SettingsStore, chatsGoToLocalModel: @escaping @MainActor () -> Bool) {
        self.settings = settings
        self.chatsGoToLocalModel = chatsGoToLocalModel
        Actions.add("use-found-server", to: window.raw) { [weak self] in self?.use() }
        banner.onDismissed = { [weak self] in self?.decline() }
        // Once the first frame is on screen.
        AfterPaint.next(window) { [weak self] in self?.look() }
    }

    /// Asks this computer's ports, off the main thread; offers the first server worth offering.
    private func look() {
        guard chatsGoToLocalModel() else {
            looked = true
            return
        }
        Task { [weak self] in
            let found = await LocalServerDiscovery.discover()
            self?.offer(found)
        }
    }

    private func offer(_ found: [FoundServer]) {
        looked = true
        guard chatsGoToLocalModel() else { return }
        let profiles = settings.serverProfiles
        let declined = settings.declinedFoundServers
        // One that can answer a chat: it has a model.
        guard let server = found.first(where: { !$0.models.isEmpty && !$0.isAdded(in: profiles) && !declined.contains($0.url) }) else {
            return
        }
        self.server = server
        banner.show(tr("%1$s is running on this computer · %2$s", server.name, server.modelCount))
    }

    /// Withdraws the offer once chats go elsewhere (chosen in Preferences).
    func refresh() {
        guard server != nil, !chatsGoToLocalModel() else { return }
        withdraw()
    }

    private func use() {
        guard let server else { return }
        withdraw()
        onUse?(server)
    }

    private func decline() {
        guard let server else { return }
        settings.declinedFoundServers = settings.declinedFoundServers.filter { $0 != server.url } + [server.url]
        self.server = nil
    }

    private func withdraw() {
        server = nil
        banner.show(nil)
    }
}
