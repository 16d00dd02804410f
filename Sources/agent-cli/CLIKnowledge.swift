import AgentCore
import Foundation

/// `--knowledge DIR`: each folder indexed (only what changed since the last run), the best
/// passages for the question found, and their sources named on stderr.
enum CLIKnowledge {
    /// The passages for `question` from `folders`; a folder that is missing or not a folder
    /// stops agent-cli with status 2 before any request, naming it.
    static func passages(for question: String, folders: [String], settings: SettingsStore) -> [KnowledgePassage] {
        guard !folders.isEmpty else { return [] }
        var urls: [URL] = []
        for folder in folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                AgentCLI.fail(usage: "cannot ask about “\(folder)”: it is not a folder")
            }
            urls.append(URL(filePath: folder))
        }
        do {
            let index = try KnowledgeIndex()
            for url in urls {
                let update = try index.update(url)
                AgentCLI.writeError("agent-cli: \(url.path): \(update.indexed) files indexed, \(update.unchanged) unchanged, "
                    + "\(update.removed) gone, \(update.skipped) not text")
            }
            let budget = KnowledgePrompt.budget(contextBudget: settings.contextBudget, share: settings.knowledgeShare)
            let started = ContinuousClock.now
            let passages = try index.passages(for: question, in: urls, tokenBudget: budget)
            let took = (ContinuousClock.now - started).components
            let elapsed = Double(took.seconds) * 1000 + Double(took.attoseconds) / 1e15
            AgentCLI.writeError("agent-cli: \(passages.count) passages found in \(String(format: "%.2f", elapsed)) ms")
            let sources = KnowledgeSource.unique(in: passages)
            if !sources.isEmpty { AgentCLI.writeError("sources: " + sources.map(\.reference).joined(separator: ", ")) }
            return passages
        } catch {
            AgentCLI.writeError("agent-cli: error: the knowledge index: \(ChatError.describe(error))")
            exit(1)
        }
    }

    /// `--passages`: each passage under its source, as the model would get it.
    static func print(_ passages: [KnowledgePassage]) {
        let text = passages.enumerated().map { "[\($0.offset + 1)] \($0.element.source.reference)\n\($0.element.text)\n" }
        FileHandle.standardOutput.write(Data(text.joined(separator: "\n").utf8))
    }
}
