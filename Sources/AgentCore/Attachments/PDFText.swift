import CPoppler
import FoundationEssentials

/// The text layer of a PDF, page by page, through poppler-glib.
enum PDFText {
    /// Each page's text, or why the file could not be opened.
    static func pages(of data: Data) -> Result<[String], AttachedFile.Refusal> {
        var message: UnsafeMutablePointer<CChar>?
        let opened = data.withUnsafeBytes { agent_pdf_open($0.baseAddress, gsize($0.count), &message) }
        guard let document = opened else {
            let reason = message.map { String(cString: $0) } ?? tr("it could not be opened")
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

    /// The line each page's text starts under, so the model and the sources can name pages.
    static func pageHeading(_ number: Int) -> String { "--- Page \(number) ---" }
}
