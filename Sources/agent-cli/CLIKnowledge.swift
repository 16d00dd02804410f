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
                AgentCLI.fail(usage: tr("cannot ask about “%s”: it is not a folder", folder))
            }
            urls.append(URL(filePath: folder))
        }
        do {
            let index = try KnowledgeIndex()
            for url in urls {
                let update = try index.update(url)
                let counts = [
                    // TRANSLATORS: what indexing a knowledge folder did, in a list: "40 files indexed, 2 unchanged, 1 gone, 3 not text".
                    trn("%d file indexed", "%d files indexed", update.indexed),
                    // TRANSLATORS: files left as they were in the knowledge index.
                    trn("%d unchanged", "%d unchanged", update.unchanged),
                    // TRANSLATORS: files removed from the knowledge index: they are no longer in the folder.
                    trn("%d gone", "%d gone", update.removed),
                    // TRANSLATORS: files skipped by the knowledge index: they are not text.
                    trn("%d not text", "%d not text", update.skipped),
                ]
                AgentCLI.writeError("agent-cli: \(url.path): " + counts.joined(separator: ", "))
            }
            let budget = KnowledgePrompt.budget(contextBudget: settings.contextBudget, share: settings.knowledgeShare)
            let started = ContinuousClock.now
            let passages = try index.passages(for: question, in: urls, tokenBudget: budget)
            let took = (ContinuousClock.now - started).components
            let elapsed = Double(took.seconds) * 1000 + Double(took.attoseconds) / 1e15
            // TRANSLATORS: %s is a number of milliseconds, "3.25".
            AgentCLI.writeError("agent-cli: " + trn("%d passage found in %s ms", "%d passages found in %s ms", passages.count,
                                                    UserLocale.number(elapsed, fractionDigits: 2)))
            let sources = KnowledgeSource.unique(in: passages)
            if !sources.isEmpty { AgentCLI.writeError("sources: " + sources.map(\.reference).joined(separator: ", ")) }
            return passages
        } catch {
            // TRANSLATORS: %s is why the knowledge index failed.
            AgentCLI.writeFailure(tr("the knowledge index: %s", ChatError.describe(error)))
            AgentCLI.exit(1)
        }
    }

    /// `--passages`: each passage under its source, as the model would get it.
    static func print(_ passages: [KnowledgePassage]) {
        let text = passages.enumerated().map { "[\($0.offset + 1)] \($0.element.source.reference)\n\($0.element.text)\n" }
        StandardStreams.write(text.joined(separator: "\n"))
    }
}
