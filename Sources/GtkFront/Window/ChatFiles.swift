import AgentCore
import CGtk
import FoundationEssentials

/// Chats in and out of files: export the open chat (Markdown or JSON) or all chats, import a
/// JSON export. A file written says so in a toast; a failure in an alert.
@MainActor
final class ChatFiles {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let library: ChatLibrary?
    private let viewModel: ChatViewModel
    /// Told what to say once something was saved or imported ("Saved to chat.md").
    var onSaved: ((String) -> Void)?

    init(window: UnsafeMutablePointer<GtkWidget>, library: ChatLibrary?, viewModel: ChatViewModel) {
        self.window = window
        self.library = library
        self.viewModel = viewModel
    }

    func exportChat(markdown: Bool) {
        guard let library, let chat = viewModel.chat else { return }
        do {
            guard let text = try markdown ? library.markdown(of: chat.id) : library.json(of: chat.id) else { return }
            save(text, suggestedName: Self.fileName(for: chat.title) + (markdown ? ".md" : ".json"), title: tr("Export Chat"),
                 failureHeading: tr("Could Not Export Chat"))
        } catch {
            viewModel.status.report(tr("Could not export the chat: %s", ChatError.describe(error)), heading: tr("Could Not Export Chat"))
        }
    }

    func exportAll() {
        guard let library else { return }
        do {
            save(try library.jsonOfAll(), suggestedName: "agent-chats.json", title: tr("Export All Chats"),
                 failureHeading: tr("Could Not Export Chats"))
        } catch {
            viewModel.status.report(error)
        }
    }

    func importChats() {
        FileChooser.choose(over: window, title: tr("Import Chats"), saving: nil) { [weak self] url in
            guard let self, let url, let library else { return }
            do {
                let count = try library.importJSON(String(decoding: try Data(contentsOf: url), as: UTF8.self))
                onSaved?(trn("Imported %d chat", "Imported %d chats", count))
            } catch {
                viewModel.status.report(tr("Could not import %1$s: %2$s", url.lastPathComponent, ChatError.describe(error)),
                                        heading: tr("Could Not Import Chats"))
            }
        }
    }

    /// Asks where to save `text` and saves it there; a failure is headed `failureHeading`.
    private func save(_ text: String, suggestedName: String, title: String, failureHeading: String) {
        FileChooser.choose(over: window, title: title, saving: suggestedName) { [weak self] url in
            guard let url else { return }
            do {
                try Data(text.utf8).write(to: url, options: .atomic)
                self?.onSaved?(tr("Saved to %s", url.lastPathComponent))
            } catch {
                self?.viewModel.status.report(tr("Could not save %1$s: %2$s", url.path, ChatError.describe(error)), heading: failureHeading)
            }
        }
    }

    /// A file name made from a chat's title.
    static func fileName(for title: String) -> String {
        let cleaned = title.map { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" ? $0 : "_" }
        let name = String(cleaned).trimmedSpaces
        return name.isEmpty ? "chat" : String(name.prefix(60))
    }
}
