import FoundationEssentials

/// The folders the open chat asks about, and their indexing. Adding a folder, or opening a
/// chat that has folders, brings their index up to date in the background (only files
/// changed since, by mtime and size), one folder at a time, with progress; each question
/// then takes the best passages from them. The index opens on first use, never at start-up.
@MainActor
public final class ChatKnowledge {
    public private(set) var folders: [URL] = []
    /// The folder being indexed and how far: (files looked at, files in all).
    public private(set) var indexing: (folder: URL, done: Int, total: Int)?
    /// Told when the folders or the progress changed.
    var onChange: (() -> Void)?
    /// Told when the user changed the folders, to keep them with the chat.
    var onFoldersChanged: (([URL]) -> Void)?
    var onProblem: ((String) -> Void)?

    private let indexFile: URL
    private var index: KnowledgeIndex?
    private var pending: [URL] = []
    private var worker: Task<Void, Never>?

    init(indexFile: URL) {
        self.indexFile = indexFile
    }

    /// Asks about `folder` too, and indexes it.
    public func add(_ folder: URL) {
        let folder = folder.standardizedFileURL
        guard !folders.contains(folder) else { return }
        folders.append(folder)
        onFoldersChanged?(folders)
        onChange?()
        refresh([folder])
    }

    public func remove(_ folder: URL) {
        guard let position = folders.firstIndex(of: folder) else { return }
        folders.remove(at: position)
        pending.removeAll { $0 == folder }
        onFoldersChanged?(folders)
        onChange?()
    }

    /// Another chat is shown: its folders, brought up to date.
    func show(_ paths: [String]) {
        let shown = paths.map { URL(filePath: $0).standardizedFileURL }
        guard shown != folders else { return }
        folders = shown
        pending.removeAll()
        onChange?()
        refresh(shown)
    }

    /// The passages for `question` from the folders, within `tokenBudget`; none when there
    /// are no folders or the index cannot be read (which is reported). Unless they are being
    /// indexed now, the folders are brought up to date first (files changed since are read
    /// again; a folder not there keeps its index).
    func passages(for question: String, tokenBudget: Int) async -> [KnowledgePassage] {
        guard !folders.isEmpty, let index = openIndex() else { return [] }
        let folders = folders
        let current = worker == nil
        let result = await Task.detached {
            if current { for folder in folders { _ = try? index.update(folder) } }
            return Result { try index.passages(for: question, in: folders, tokenBudget: tokenBudget) }
        }.value
        switch result {
        case .success(let passages): return passages
        case .failure(let error):
            onProblem?(tr("The knowledge folders could not be searched: %s", ChatError.describe(error)))
            return []
        }
    }

    /// Waits until every folder asked for is indexed (tests, benchmarks).
    public func waitUntilIndexed() async {
        while let worker { await worker.value }
    }

    private func openIndex() -> KnowledgeIndex? {
        if let index { return index }
        do {
            index = try KnowledgeIndex(file: indexFile)
        } catch {
            onProblem?(tr("The knowledge index could not be opened: %s", ChatError.describe(error)))
        }
        return index
    }

    private func refresh(_ more: [URL]) {
        pending += more.filter { !pending.contains($0) }
        guard worker == nil, !pending.isEmpty, let index = openIndex() else { return }
        worker = Task {
            while !pending.isEmpty {
                let folder = pending.removeFirst()
                indexing = (folder, 0, 0)
                onChange?()
                let relay = MainActorRelay<(Int, Int)> { [weak self] reports in
                    guard let self, let last = reports.last, indexing?.folder == folder else { return }
                    indexing = (folder, last.0, last.1)
                    onChange?()
                }
                let result = await Task.detached {
                    Result { try index.update(folder) { relay.push(($0, $1)) } }
                }.value
                relay.flush()
                if case .failure(let error) = result {
                    onProblem?(tr("Could not index “%1$s”: %2$s", folder.path, ChatError.describe(error)))
                }
            }
            indexing = nil
            worker = nil
            onChange?()
        }
    }
}
