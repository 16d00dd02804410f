import CPoppler

/// The text layer of a PDF, page by page, through poppler-glib.
enum PDFText {
    /// Each page's text, or why the file could not be opened.
    static func pages(of path: String) -> Result<[String], AttachedFile.Refusal> {
        var message: UnsafeMutablePointer<CChar>?
        guard let document = agent_pdf_open(path, &message) else {
            let reason = message.map { String(cString: $0) } ?? "it could not be opened"
            g_free(message)
            return .failure(AttachedFile.Refusal(description: reason))
        }
        defer { agent_pdf_close(document) }
        var pages: [String] = []
        for index in 0..<max(0, agent_pdf_page_count(document)) {
            let text = agent_pdf_page_text(document, Int32(index))
            pages.append(text.map { String(cString: $0) } ?? "")
            g_free(text)
        }
        return .success(pages)
    }
}
