import FoundationEssentials

/// A passage of a file in a knowledge folder, as retrieval gives it to a request.
public struct KnowledgePassage: Sendable, Equatable {
    public let source: KnowledgeSource
    public let text: String

    public init(source: KnowledgeSource, text: String) {
        self.source = source
        self.text = text
    }
}

/// Where a passage came from: a file, and the page of a PDF. Shown under the reply it
/// informed, as a link that opens the file.
public struct KnowledgeSource: Sendable, Equatable, Hashable {
    public let path: String
    /// The PDF page, from 1; nil for other files.
    public let page: Int?

    public init(path: String, page: Int? = nil) {
        self.path = path
        self.page = page
    }

    /// "notes.md", "report.pdf, page 3": under a reply.
    public var label: String {
        let name = URL(filePath: path).lastPathComponent
        // TRANSLATORS: a source under a reply: %1$s is a PDF file's name, %2$s a page number.
        return page.map { tr("%1$s, page %2$s", name, UserLocale.number($0)) } ?? name
    }

    /// "/home/me/notes.md", "/home/me/report.pdf (page 3)": for the model and the terminal.
    public var reference: String {
        page.map { "\(path) (page \($0))" } ?? path
    }

    /// The sources of `passages`, each once, in order.
    public static func unique(in passages: [KnowledgePassage]) -> [KnowledgeSource] {
        var seen = Set<KnowledgeSource>()
        return passages.map(\.source).filter { seen.insert($0).inserted }
    }
}
